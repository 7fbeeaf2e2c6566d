/**
 * The PWA is a static export served by the host (see README, "Why a static export").
 * @type {import('next').NextConfig}
 */
const nextConfig = {
  output: 'export',
  reactStrictMode: true,
  poweredByHeader: false,
  images: { unoptimized: true },
  productionBrowserSourceMaps: false,
};

export default nextConfig;
