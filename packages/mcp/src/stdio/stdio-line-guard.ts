import { Transform, type TransformCallback } from 'node:stream';
import { exceedsJsonDepth, tooDeepMessage } from '../json/json-depth.js';

const NEWLINE = 0x0a;

/** What a {@link StdioLineGuard} refused, to be answered to the client with `-32600` and `id: null`. */
export type RefusedLine = { readonly message: string };

/**
 * Sits between stdin and the MCP transport and lets through only lines it is safe to parse: a line
 * longer than `maxLineBytes` (its bytes are dropped as they arrive, so memory stays bounded) or one
 * nesting arrays and objects deeper than `maxDepth` is never handed to `JSON.parse`; `onRefused`
 * is told instead. Every other line passes unchanged, newline included.
 */
export class StdioLineGuard extends Transform {
  readonly #maxLineBytes: number;
  readonly #maxDepth: number;
  readonly #onRefused: (refused: RefusedLine) => void;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #discarding = false;

  constructor(maxLineBytes: number, maxDepth: number, onRefused: (refused: RefusedLine) => void) {
    super();
    this.#maxLineBytes = maxLineBytes;
    this.#maxDepth = maxDepth;
    this.#onRefused = onRefused;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    let start = 0;
    while (start < chunk.length) {
      const end = chunk.indexOf(NEWLINE, start);
      const part = chunk.subarray(start, end === -1 ? chunk.length : end);
      if (!this.#discarding) {
        this.#pending.push(part);
        this.#pendingBytes += part.length;
        if (this.#pendingBytes > this.#maxLineBytes) {
          this.#pending = [];
          this.#pendingBytes = 0;
          this.#discarding = true;
          this.#onRefused({ message: `Invalid Request: a line is longer than ${this.#maxLineBytes} bytes` });
        }
      }
      if (end === -1) break;
      if (this.#discarding) this.#discarding = false;
      else this.#completeLine();
      start = end + 1;
    }
    callback();
  }

  override _flush(callback: TransformCallback): void {
    if (!this.#discarding && this.#pendingBytes > 0) this.#completeLine(false);
    callback();
  }

  #completeLine(newline = true): void {
    const line = this.#pending.length === 1 ? (this.#pending[0] as Buffer) : Buffer.concat(this.#pending);
    this.#pending = [];
    this.#pendingBytes = 0;
    if (exceedsJsonDepth(line, this.#maxDepth)) {
      this.#onRefused({ message: tooDeepMessage(this.#maxDepth) });
      return;
    }
    this.push(newline ? Buffer.concat([line, Buffer.from('\n')]) : line);
  }
}
