/**
 * Tags DOMPurify must drop from anything an agent wrote (previews, plans): they run script,
 * submit or embed, load from elsewhere, or escape the card's layout (R12.2).
 */
export const UNSAFE_TAGS = [
  'style',
  'script',
  'form',
  'input',
  'button',
  'textarea',
  'select',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'link',
  'meta',
  'base',
  'svg',
  'math',
  'video',
  'audio',
  'source',
  'track',
  'picture',
  'portal',
];
