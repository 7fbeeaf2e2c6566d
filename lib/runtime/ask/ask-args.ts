import { AskUserQuestionInputSchema, type AskUserQuestionInput } from '../../contracts';
import { formatIssues } from '../../core';
import { parseDuration } from '../duration';

export const ASK_USAGE = `Usage: askaway ask "<question>" --option "Label=Description" --option … [options]

Asks one question on your phone and prints the answer.

Options:
  --header <text>     short chip label, at most 12 characters (default: Question)
  --option <l=d>      an option: label, "=", what choosing it means (2 to 4; the description may be omitted)
  --multi             several options may be chosen (the answer joins them with ", ")
  --json              print the answered input as JSON: {questions, answers, annotations}
  --timeout <dur>     give up after this long, e.g. 90s, 5m, 1h (default: wait until answered)
  -h, --help          show this help

Exit codes: 0 answered, 3 skipped, 4 declined, 2 bad arguments, 5 host unreachable, 6 timed out.

Example:
  askaway ask "Deploy now?" --header Deploy --option "Yes=Ship it" --option "No=Wait"
`;

export class AskUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AskUsageError';
  }
}

export interface AskArgs {
  input: AskUserQuestionInput;
  json: boolean;
  timeoutMs?: number;
}

/** Parses `askaway ask` flags into a valid tool input; throws AskUsageError naming the problem. */
export function parseAskArgs(argv: readonly string[]): AskArgs | 'help' {
  const positional: string[] = [];
  const options: { label: string; description: string }[] = [];
  let header = 'Question';
  let multiSelect = false;
  let json = false;
  let timeoutMs: number | undefined;
  const valueOf = (flag: string, index: number) => {
    const value = argv[index + 1];
    if (value === undefined) throw new AskUsageError(`${flag} needs a value`);
    return value;
  };
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? '';
    if (arg === '--help' || arg === '-h') return 'help';
    if (arg === '--multi') multiSelect = true;
    else if (arg === '--json') json = true;
    else if (arg === '--header') header = valueOf(arg, index++);
    else if (arg === '--option') options.push(splitOption(valueOf(arg, index++)));
    else if (arg === '--timeout') {
      const parsed = parseDuration(valueOf(arg, index++));
      if (parsed === null) throw new AskUsageError('--timeout needs a duration such as 90s, 5m or 1h');
      timeoutMs = parsed;
    } else if (arg.startsWith('-') && arg.length > 1) throw new AskUsageError(`unknown option ${arg}`);
    else positional.push(arg);
  }
  if (positional.length !== 1) throw new AskUsageError('give exactly one question, in quotes');
  const parsed = AskUserQuestionInputSchema.safeParse({
    questions: [{ question: positional[0], header, options, multiSelect }],
  });
  if (!parsed.success) throw new AskUsageError(formatIssues(parsed.error.issues).replaceAll('questions[0].', ''));
  return { input: parsed.data, json, timeoutMs };
}

function splitOption(text: string): { label: string; description: string } {
  const at = text.indexOf('=');
  if (at < 0) return { label: text.trim(), description: text.trim() };
  const label = text.slice(0, at).trim();
  const description = text.slice(at + 1).trim();
  return { label, description: description || label };
}
