import { homedir } from 'node:os';
import path from 'node:path';
import { errorMessage } from '../../lib/contracts';
import { HOST_VERSION } from '../../lib/host/version';
import { installLastResort } from '../../lib/runtime/last-resort';
import { runOpenCodeBridge } from '../../lib/runtime/agents/opencode/bridge-stdio';
import {
  BRIDGE_COMMAND,
  bundledPluginSource,
  PLUGIN_FILE,
  pluginFileText,
  pluginFolder,
  removePluginFile,
  writePluginFile,
} from '../../lib/runtime/agents/opencode/install';
import { untilStopped } from './stop-signals';
import { type CliCommand } from './types';

export const OPENCODE_USAGE = `Usage:
  askaway opencode install [--project [dir]] [--command "<cmd>"] [--remove]
  askaway opencode bridge

install     write the Askaway plugin for OpenCode: its questions and permission prompts go to your phone,
            from a plain \`opencode\`, \`opencode serve\` or \`--port\` alike (restart OpenCode to load it)
  --project write it to <dir>/.opencode/plugins/ (default: this folder) instead of
            OpenCode's global ~/.config/opencode/plugins/ ($XDG_CONFIG_HOME)
  --command the command the plugin starts (default: ${BRIDGE_COMMAND})
  --remove  remove the plugin instead
            Only ${PLUGIN_FILE} is written: your opencode.json and other plugins stay as they are; safe to repeat.

bridge      what the plugin starts: JSON lines with the plugin on stdin/stdout, Askaway's host on the other side

Environment: ASKAWAY_URL, ASKAWAY_TOKEN, ASKAWAY_DATA_DIR (see askaway mcp --help) where OpenCode runs;
ASKAWAY_OPENCODE_LOG: a file for the bridge's log lines (default: OpenCode's own log).
`;

export interface OpenCodeInstallRun {
  argv: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  home: string;
  /** The plugin's code; the CLI bundle carries it. */
  source: string | undefined;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

function usageError(run: Pick<OpenCodeInstallRun, 'stderr'>, message: string): number {
  run.stderr(`askaway opencode: ${message}\n\n${OPENCODE_USAGE}`);
  return 2;
}

/** `askaway opencode install`, in-process (R18.27). */
export async function openCodeInstallMain(run: OpenCodeInstallRun): Promise<number> {
  let project: string | undefined;
  let command = BRIDGE_COMMAND;
  let remove = false;
  for (let index = 0; index < run.argv.length; index += 1) {
    const arg = run.argv[index];
    const next = run.argv[index + 1];
    if (arg === '--project') {
      if (next !== undefined && !next.startsWith('--')) {
        project = path.resolve(run.cwd, next);
        index += 1;
      } else project = run.cwd;
    } else if (arg === '--remove') remove = true;
    else if (arg === '--command') {
      if (!next) return usageError(run, '--command needs the command line the plugin should start');
      command = next;
      index += 1;
    } else return usageError(run, `unexpected argument "${arg}"`);
  }
  const file = path.join(pluginFolder({ project, env: run.env, home: run.home }), PLUGIN_FILE);
  try {
    if (remove) {
      const { removed } = await removePluginFile(file);
      run.stdout(removed ? `Removed ${file}\n` : `No Askaway plugin at ${file}\n`);
      return 0;
    }
    if (run.source === undefined)
      throw new Error('this build carries no OpenCode plugin (run the built CLI, dist/cli.js)');
    const { changed } = await writePluginFile(file, pluginFileText(run.source, { command, version: HOST_VERSION }));
    run.stdout(
      changed
        ? `Askaway's OpenCode plugin written to ${file}\nRestart OpenCode to load it; it starts \`${command}\`.\n`
        : `${file} already has this Askaway plugin\n`,
    );
    return 0;
  } catch (error) {
    run.stderr(`askaway opencode install: ${errorMessage(error)}\n`);
    return 1;
  }
}

async function runBridge(): Promise<number> {
  // The plugin's lines must not stop the bridge through a bug of ours (R12.18); stdout is the plugin's, so stderr.
  const undoLastResort = installLastResort((line) => process.stderr.write(`${line}\n`));
  try {
    // OpenCode closing ends stdin; a signal (a closing terminal) ends it too, after withdrawing what is open.
    await untilStopped((signal) => runOpenCodeBridge({ signal }));
  } finally {
    undoLastResort();
  }
  return 0;
}

export const openCodeCommand: CliCommand = {
  name: 'opencode',
  summary: 'OpenCode: its questions and permission prompts on your phone (a plugin and its bridge)',
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub === undefined || sub === '--help' || sub === '-h' || rest.includes('--help') || rest.includes('-h')) {
      process.stdout.write(OPENCODE_USAGE);
      return sub === undefined ? 2 : 0;
    }
    if (sub === 'bridge') {
      if (rest.length > 0)
        return usageError({ stderr: (text) => process.stderr.write(text) }, `unexpected argument "${rest[0]}"`);
      return runBridge();
    }
    if (sub === 'install')
      return openCodeInstallMain({
        argv: rest,
        cwd: process.cwd(),
        env: process.env,
        home: process.env.HOME ?? homedir(),
        source: bundledPluginSource(),
        stdout: (text) => process.stdout.write(text),
        stderr: (text) => process.stderr.write(text),
      });
    return usageError({ stderr: (text) => process.stderr.write(text) }, `unknown subcommand "${sub}"`);
  },
};
