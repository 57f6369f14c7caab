import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';

/** When a part of the bench started, and how loaded the machine was then. */
export interface RunStart {
  at: Date;
  /** The load averages over 1, 5 and 15 minutes at the start. */
  load: number[];
}

export function startOfRun(): RunStart {
  return { at: new Date(), load: loadavg() };
}

/**
 * The line a section of docs/benchmarks.md written by a part that runs only when asked opens with:
 * the command, the date, the machine and its load average at the start (this machine is shared).
 */
export function runLine(command: string, started: RunStart): string {
  const [one, five, fifteen] = started.load.map((value) => value.toFixed(1));
  return (
    `Command: \`${command}\`. Run: ${started.at.toISOString()}; machine: ${cpus().length} × ` +
    `${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}; ` +
    `load average at the start ${one} (1 min), ${five} (5 min), ${fifteen} (15 min).`
  );
}

/** Where the section under `heading` lies in `text` (from its heading to the next one), if it is there. */
function sectionBounds(text: string, heading: string): { start: number; end: number } | undefined {
  const found = text.indexOf(`\n${heading}`);
  if (found < 0) {
    return undefined;
  }
  const end = text.indexOf('\n## ', found + 1);
  return { start: found + 1, end: end < 0 ? text.length : end + 1 };
}

/** The section under `heading` of `file` as it is (a part that runs only when asked wrote it), or nothing. */
export function keptSection(file: string, heading: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const bounds = sectionBounds(text, heading);
  if (bounds === undefined) {
    return [];
  }
  return [...text.slice(bounds.start, bounds.end).trimEnd().split('\n'), ''];
}

/**
 * Writes a part's section (`lines`, opening with `heading`) into `file`: in place of the section under
 * `heading`, or at the end the first time. The rest of the file is left as it is.
 */
export function writeSection(file: string, heading: string, lines: string[]): void {
  const text = readFileSync(file, 'utf8');
  const section = `${lines.join('\n').trimEnd()}\n`;
  const bounds = sectionBounds(text, heading);
  const updated =
    bounds === undefined
      ? `${text.trimEnd()}\n\n${section}`
      : `${text.slice(0, bounds.start)}${section}${bounds.end < text.length ? '\n' : ''}${text.slice(bounds.end)}`;
  writeFileSync(file, updated);
  console.log(lines.join('\n'));
  console.log(`wrote the section "${heading}" of ${file}`);
}
