// SHDR stream → lines: the line assembler every SHDR reader (socket, replay, MQTT, import) feeds bytes to.
import { StringDecoder } from 'node:string_decoder';

const MULTILINE_MARK = '--multiline--';

export interface ShdrLineSplitter {
  /** Feed raw bytes or text; returns the lines completed by this chunk (empty lines dropped). */
  push(chunk: Buffer | string): string[];
  /** End of stream: returns a last unterminated line, if any. */
  end(): string[];
  /** Lines (or multiline bodies) dropped because they exceeded maxLineLength. */
  readonly dropped: number;
}

/**
 * Stateful line assembler. Handles LF and CRLF, chunks that split lines (and UTF-8 characters),
 * and `--multiline--TAG` blocks: a line ending in the marker is joined with every following line up
 * to the closing `--multiline--TAG` line, and comes out as one record (`header|body`, body lines
 * joined by '\n'). The
 * body lines are never handed out as data lines, so an asset document cannot pollute the stream.
 */
export function splitShdrStream(options: { maxLineLength?: number } = {}): ShdrLineSplitter {
  // Guards memory against a peer that never sends a newline or never closes its multiline block.
  const maxLineLength = options.maxLineLength ?? 1 << 20;
  const decoder = new StringDecoder('utf8');
  let partial = '';
  let skippingOverlong = false;
  let block: { tag: string; header: string; body: string[]; size: number } | null = null;
  let dropped = 0;

  function takeLine(raw: string, out: string[]): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (block) {
      if (line.trim() === block.tag) {
        out.push(`${block.header}|${block.body.join('\n')}`);
        block = null;
      } else if (block.size + line.length > maxLineLength) {
        dropped++;
        block = null;
      } else {
        block.body.push(line);
        block.size += line.length + 1;
      }
      return;
    }
    const trimmed = line.trimEnd();
    const markAt = trimmed.lastIndexOf(MULTILINE_MARK);
    if (markAt >= 0 && /^[^\s|]+$/.test(trimmed.slice(markAt + MULTILINE_MARK.length))) {
      const header = trimmed.slice(0, markAt).replace(/\|$/, '');
      block = { tag: trimmed.slice(markAt), header, body: [], size: header.length };
      return;
    }
    if (trimmed.trim() !== '') out.push(line);
  }

  function push(chunk: Buffer | string): string[] {
    const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    const out: string[] = [];
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      const piece = text.slice(start, nl);
      start = nl + 1;
      if (skippingOverlong) {
        skippingOverlong = false;
        partial = '';
        continue;
      }
      const raw = partial + piece;
      partial = '';
      // A line that came whole within the chunks is held to the limit as well as one still growing.
      if (!block && raw.length > maxLineLength) {
        dropped++;
        continue;
      }
      takeLine(raw, out);
    }
    if (!skippingOverlong) partial += text.slice(start);
    if (partial.length > maxLineLength) {
      dropped++;
      partial = '';
      skippingOverlong = true;
    }
    return out;
  }

  function end(): string[] {
    const out: string[] = [];
    const rest = partial + decoder.end();
    partial = '';
    if (!skippingOverlong && rest !== '') takeLine(rest, out);
    skippingOverlong = false;
    // An unterminated multiline block at end of stream is incomplete: dropped, like cppagent.
    if (block) {
      dropped++;
      block = null;
    }
    return out;
  }

  return {
    push,
    end,
    get dropped() {
      return dropped;
    },
  };
}
