/** Progress per table on a terminal (stderr); silent otherwise. */
export class Progress {
  private readonly width = 30;
  private last = 0;

  constructor(private readonly stream: NodeJS.WriteStream = process.stderr) {}

  get enabled(): boolean {
    return this.stream.isTTY === true;
  }

  update(label: string, done: number, total: number): void {
    if (!this.enabled) {
      return;
    }
    const now = Date.now();
    if (done < total && now - this.last < 100) {
      return;
    }
    this.last = now;
    const filled = total === 0 ? this.width : Math.round((done / total) * this.width);
    const bar = '#'.repeat(filled) + '.'.repeat(this.width - filled);
    this.stream.write(`\r\x1b[K${label.padEnd(44)} [${bar}] ${done}/${total}`);
    if (done >= total) {
      this.stream.write('\n');
    }
  }
}
