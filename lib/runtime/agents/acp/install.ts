// How an editor is pointed at the proxy (R18.2: install, R18.40): where it launched `gemini --acp`, it launches
// `askaway acp -- gemini --acp`. Nothing is written: the snippets are printed for the person to paste.

/** The proxy's command line for an agent's own command line. */
export function proxiedCommand(agent: readonly string[], name?: string): string[] {
  return ['askaway', 'acp', ...(name ? ['--name', name] : []), '--', ...agent];
}

/** Zed's `agent_servers` entry (settings.json, a custom agent) that runs `agent` through the proxy. */
export function zedSettings(label: string, agent: readonly string[]): string {
  const [command, ...args] = proxiedCommand(agent, label);
  return JSON.stringify({ agent_servers: { [label]: { type: 'custom', command, args } } }, null, 2);
}

/** JetBrains' `~/.jetbrains/acp.json` (AI Assistant → Add custom agent) entry that runs `agent` through the proxy. */
export function jetBrainsAcpJson(label: string, agent: readonly string[]): string {
  const [command, ...args] = proxiedCommand(agent, label);
  return JSON.stringify({ agent_servers: { [label]: { command, args } } }, null, 2);
}
