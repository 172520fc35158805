// A QR code (ISO/IEC 18004) for short texts such as an `otpauth://` URI, drawn as SVG on the server: byte mode,
// error correction level M, versions 1 to 10 (up to 213 bytes). Small on purpose: one use, no dependency, no script on
// the page. The steps follow the standard's order: data bits, Reed-Solomon blocks, interleaving, the function
// patterns, the zigzag placement, the mask with the lowest penalty, and the format and version bits.

/** Level M, versions 1 to 10: error correction codewords per block and number of blocks (the standard's table 9). */
const EC_PER_BLOCK = [0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26] as const;
const BLOCKS = [0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5] as const;
export const QR_MAX_VERSION = 10;

/** Modules that carry data and error correction (everything but the function patterns). */
function rawDataModules(version: number): number {
  let result = (16 * version + 128) * version + 64;
  if (version >= 2) {
    const align = Math.floor(version / 7) + 2;
    result -= (25 * align - 10) * align - 55;
    if (version >= 7) result -= 36;
  }
  return result;
}

const totalCodewords = (version: number) => Math.floor(rawDataModules(version) / 8);
export const dataCodewords = (version: number) => totalCodewords(version) - EC_PER_BLOCK[version]! * BLOCKS[version]!;

// ---------------------------------------------------------------- Reed-Solomon over GF(2^8), polynomial 0x11d

function gfMultiply(x: number, y: number): number {
  let z = 0;
  for (let i = 7; i >= 0; i -= 1) {
    z = (z << 1) ^ ((z >>> 7) * 0x11d);
    z ^= ((y >>> i) & 1) * x;
  }
  return z;
}

/** The generator polynomial of the given degree (its coefficients after the leading 1, highest first). */
export function rsDivisor(degree: number): number[] {
  const result = new Array<number>(degree).fill(0);
  result[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i += 1) {
    for (let j = 0; j < degree; j += 1) {
      result[j] = gfMultiply(result[j]!, root);
      if (j + 1 < degree) result[j]! ^= result[j + 1]!;
    }
    root = gfMultiply(root, 0x02);
  }
  return result;
}

/** The error correction codewords of one block. */
export function rsRemainder(data: readonly number[], divisor: readonly number[]): number[] {
  const result = new Array<number>(divisor.length).fill(0);
  for (const byte of data) {
    const factor = byte ^ result.shift()!;
    result.push(0);
    divisor.forEach((coefficient, i) => (result[i]! ^= gfMultiply(coefficient, factor)));
  }
  return result;
}

// ---------------------------------------------------------------- codewords

/** The smallest version that holds `length` bytes in byte mode at level M. */
export function versionFor(length: number): number {
  for (let version = 1; version <= QR_MAX_VERSION; version += 1) {
    const countBits = version <= 9 ? 8 : 16;
    if (4 + countBits + length * 8 <= dataCodewords(version) * 8) return version;
  }
  throw new RangeError(`A QR code here holds at most ${QR_MAX_VERSION} versions' worth of bytes; this text is ${length} bytes.`);
}

/** Mode, count, the bytes, terminator and padding: the data codewords of a version. */
export function dataCodewordsOf(bytes: Uint8Array, version: number): number[] {
  const bits: number[] = [];
  const put = (value: number, length: number) => {
    for (let i = length - 1; i >= 0; i -= 1) bits.push((value >>> i) & 1);
  };
  const capacity = dataCodewords(version) * 8;
  put(0b0100, 4);
  put(bytes.length, version <= 9 ? 8 : 16);
  for (const byte of bytes) put(byte, 8);
  put(0, Math.min(4, capacity - bits.length));
  put(0, (8 - (bits.length % 8)) % 8);
  for (let pad = 0xec; bits.length < capacity; pad ^= 0xec ^ 0x11) put(pad, 8);
  const out: number[] = [];
  for (let i = 0; i < bits.length; i += 8) out.push(bits.slice(i, i + 8).reduce((byte, bit) => (byte << 1) | bit, 0));
  return out;
}

/** The data split into blocks, each with its error correction, interleaved as the symbol carries them. */
export function interleaved(data: readonly number[], version: number): number[] {
  const blockCount = BLOCKS[version]!;
  const ecLength = EC_PER_BLOCK[version]!;
  const raw = totalCodewords(version);
  const shortBlocks = blockCount - (raw % blockCount);
  const shortLength = Math.floor(raw / blockCount);
  const divisor = rsDivisor(ecLength);
  const blocks: number[][] = [];
  for (let i = 0, k = 0; i < blockCount; i += 1) {
    const length = shortLength - ecLength + (i < shortBlocks ? 0 : 1);
    const part = data.slice(k, k + length);
    k += length;
    const ec = rsRemainder(part, divisor);
    // A short block gets a placeholder so that every block's error correction lines up; it is skipped below.
    blocks.push([...part, ...(i < shortBlocks ? [0] : []), ...ec]);
  }
  const out: number[] = [];
  for (let i = 0; i < blocks[0]!.length; i += 1)
    blocks.forEach((block, j) => {
      if (i !== shortLength - ecLength || j >= shortBlocks) out.push(block[i]!);
    });
  return out;
}

// ---------------------------------------------------------------- the symbol

/** Format bits for level M and a mask: BCH(15,5), masked with 101010000010010. */
export function formatBits(mask: number): number {
  const data = (0b00 << 3) | mask;
  let rem = data;
  for (let i = 0; i < 10; i += 1) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
  return ((data << 10) | rem) ^ 0x5412;
}

/** Version bits (versions 7 and up): BCH(18,6). */
export function versionBits(version: number): number {
  let rem = version;
  for (let i = 0; i < 12; i += 1) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
  return (version << 12) | rem;
}

function alignmentPositions(version: number, size: number): number[] {
  if (version === 1) return [];
  const count = Math.floor(version / 7) + 2;
  const step = Math.ceil((version * 4 + 4) / (count * 2 - 2)) * 2;
  const result = [6];
  for (let position = size - 7; result.length < count; position -= step) result.splice(1, 0, position);
  return result;
}

const bit = (value: number, i: number) => ((value >>> i) & 1) === 1;

const MASKS: ((x: number, y: number) => boolean)[] = [
  (x, y) => (x + y) % 2 === 0,
  (_x, y) => y % 2 === 0,
  (x) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
  (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
  (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

class Symbol {
  readonly size: number;
  readonly dark: boolean[][];
  readonly reserved: boolean[][];

  constructor(readonly version: number) {
    this.size = version * 4 + 17;
    this.dark = Array.from({ length: this.size }, () => new Array<boolean>(this.size).fill(false));
    this.reserved = Array.from({ length: this.size }, () => new Array<boolean>(this.size).fill(false));
    this.drawFunctionPatterns();
  }

  private fixed(x: number, y: number, dark: boolean) {
    this.dark[y]![x] = dark;
    this.reserved[y]![x] = true;
  }

  private drawFunctionPatterns() {
    const { size } = this;
    for (let i = 0; i < size; i += 1) {
      this.fixed(6, i, i % 2 === 0);
      this.fixed(i, 6, i % 2 === 0);
    }
    for (const [cx, cy] of [
      [3, 3],
      [size - 4, 3],
      [3, size - 4],
    ] as const)
      for (let dy = -4; dy <= 4; dy += 1)
        for (let dx = -4; dx <= 4; dx += 1) {
          const x = cx + dx;
          const y = cy + dy;
          const distance = Math.max(Math.abs(dx), Math.abs(dy));
          if (x >= 0 && x < size && y >= 0 && y < size) this.fixed(x, y, distance !== 2 && distance !== 4);
        }
    const positions = alignmentPositions(this.version, size);
    const last = positions.length - 1;
    positions.forEach((cx, i) =>
      positions.forEach((cy, j) => {
        if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) return;
        for (let dy = -2; dy <= 2; dy += 1) for (let dx = -2; dx <= 2; dx += 1) this.fixed(cx + dx, cy + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
      }),
    );
    this.drawFormat(0);
    if (this.version >= 7) {
      const bits = versionBits(this.version);
      for (let i = 0; i < 18; i += 1) {
        const a = size - 11 + (i % 3);
        const b = Math.floor(i / 3);
        this.fixed(a, b, bit(bits, i));
        this.fixed(b, a, bit(bits, i));
      }
    }
  }

  drawFormat(mask: number) {
    const { size } = this;
    const bits = formatBits(mask);
    for (let i = 0; i <= 5; i += 1) this.fixed(8, i, bit(bits, i));
    this.fixed(8, 7, bit(bits, 6));
    this.fixed(8, 8, bit(bits, 7));
    this.fixed(7, 8, bit(bits, 8));
    for (let i = 9; i < 15; i += 1) this.fixed(14 - i, 8, bit(bits, i));
    for (let i = 0; i < 8; i += 1) this.fixed(size - 1 - i, 8, bit(bits, i));
    for (let i = 8; i < 15; i += 1) this.fixed(8, size - 15 + i, bit(bits, i));
    this.fixed(8, size - 8, true);
  }

  /** The codewords in the zigzag: two columns at a time from the right, up then down, around what is reserved. */
  drawCodewords(codewords: readonly number[]) {
    const { size } = this;
    let i = 0;
    for (let right = size - 1; right >= 1; right -= 2) {
      if (right === 6) right = 5;
      for (let vertical = 0; vertical < size; vertical += 1)
        for (let j = 0; j < 2; j += 1) {
          const x = right - j;
          const upward = ((right + 1) & 2) === 0;
          const y = upward ? size - 1 - vertical : vertical;
          if (!this.reserved[y]![x] && i < codewords.length * 8) {
            this.dark[y]![x] = bit(codewords[i >>> 3]!, 7 - (i & 7));
            i += 1;
          }
        }
    }
  }

  applyMask(mask: number) {
    const flip = MASKS[mask]!;
    for (let y = 0; y < this.size; y += 1) for (let x = 0; x < this.size; x += 1) if (!this.reserved[y]![x] && flip(x, y)) this.dark[y]![x] = !this.dark[y]![x];
  }

  /** The standard's penalty (N1 runs, N2 blocks, N3 finder-like patterns, N4 balance): the mask with the least is used. */
  penalty(): number {
    const { size, dark } = this;
    let score = 0;
    const lines: boolean[][] = [...dark, ...dark.map((_row, x) => dark.map((row) => row[x]!))];
    const finderLike = [true, false, true, true, true, false, true];
    for (const line of lines) {
      let run = 1;
      for (let i = 1; i <= size; i += 1) {
        if (i < size && line[i] === line[i - 1]) run += 1;
        else {
          if (run >= 5) score += run - 2;
          run = 1;
        }
      }
      for (let i = 0; i + 7 <= size; i += 1) {
        if (!finderLike.every((value, k) => line[i + k] === value)) continue;
        const lightBefore = [1, 2, 3, 4].every((k) => i - k < 0 || !line[i - k]);
        const lightAfter = [7, 8, 9, 10].every((k) => i + k >= size || !line[i + k]);
        if (lightBefore || lightAfter) score += 40;
      }
    }
    for (let y = 0; y + 1 < size; y += 1)
      for (let x = 0; x + 1 < size; x += 1) {
        const c = dark[y]![x];
        if (dark[y]![x + 1] === c && dark[y + 1]![x] === c && dark[y + 1]![x + 1] === c) score += 3;
      }
    const darkCount = dark.reduce((sum, row) => sum + row.filter(Boolean).length, 0);
    const total = size * size;
    score += (Math.ceil(Math.abs(darkCount * 20 - total * 10) / total) - 1) * 10;
    return score;
  }
}

/** The QR code's modules (true is dark), rows from the top, without the quiet zone. */
export function qrModules(text: string): boolean[][] {
  const bytes = new TextEncoder().encode(text);
  const version = versionFor(bytes.length);
  const codewords = interleaved(dataCodewordsOf(bytes, version), version);
  let best: { score: number; dark: boolean[][] } | null = null;
  for (let mask = 0; mask < 8; mask += 1) {
    const symbol = new Symbol(version);
    symbol.drawCodewords(codewords);
    symbol.applyMask(mask);
    symbol.drawFormat(mask);
    const score = symbol.penalty();
    if (!best || score < best.score) best = { score, dark: symbol.dark };
  }
  return best!.dark;
}

/** The QR code as one SVG path of unit squares, 4 modules of quiet zone around it: `size` is the square's side. */
export function qrPath(text: string): { size: number; d: string } {
  const modules = qrModules(text);
  let d = "";
  modules.forEach((row, y) => row.forEach((dark, x) => (d += dark ? `M${x + 4} ${y + 4}h1v1h-1z` : "")));
  return { size: modules.length + 8, d };
}

/** The QR code as an SVG image, its text said in `label` for people who cannot see it. */
export function qrSvg(text: string, label: string): string {
  const { size, d } = qrPath(text);
  const escaped = label.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" role="img" aria-label="${escaped}" shape-rendering="crispEdges"><rect width="${size}" height="${size}" fill="#fff"/><path fill="#000" d="${d}"/></svg>`;
}
