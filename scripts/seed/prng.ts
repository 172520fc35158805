// A small seeded PRNG (mulberry32) and the draws the seed needs. The uniform
// draws are 32-bit integer arithmetic, and V8's Math.log/exp/cos are its own
// fdlibm ports, so a seed gives the same numbers on every machine. Streams are
// named (hashed labels) so one part of the seed can grow without shifting the
// numbers of another.

/** The fixed seed of the demo data. Change it and every generated row changes. */
export const SEED = 0x6a1c_2026;

/** FNV-1a over a string: a 32-bit seed for a named stream. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A stream derived from the fixed seed and a label. */
  static stream(label: string, seed: number = SEED): Rng {
    return new Rng(hash32(`${seed}:${label}`));
  }

  /** Uniform in [0, 1), 32 bits of mulberry32. */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick from an empty list");
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** One item, with probability proportional to its weight. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, w] of items) total += w;
    let r = this.next() * total;
    for (const [item, w] of items) {
      r -= w;
      if (r < 0) return item;
    }
    return (items[items.length - 1] as readonly [T, number])[0];
  }

  /** A string of random decimal digits. */
  digits(count: number): string {
    let out = "";
    for (let i = 0; i < count; i++) out += String(Math.floor(this.next() * 10));
    return out;
  }

  /** Standard normal (Box-Muller). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** Log-normal around a median: many small values, a long tail of large ones. */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }
}

/** Cumulative weights for repeated weighted picks from a long list (binary search). */
export class WeightedTable<T> {
  private readonly items: T[] = [];
  private readonly cumulative: number[] = [];
  private total = 0;

  add(item: T, weight: number): void {
    if (!(weight > 0)) return;
    this.total += weight;
    this.items.push(item);
    this.cumulative.push(this.total);
  }

  get size(): number {
    return this.items.length;
  }

  pick(rng: Rng): T {
    if (this.items.length === 0) throw new Error("pick from an empty table");
    const r = rng.next() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.cumulative[mid] as number) > r) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo] as T;
  }
}
