// Integer pesewas written as cedis, in one place: the screens, the server's messages and the CSV exports agree to the
// pesewa. Computed on integers, so no float rounding creeps in. Pure: the browser takes it too
// (scripts/server-code-boundary.ts SHARED_WITH_BROWSER).

const GROUP = /\B(?=(\d{3})+(?!\d))/g;

function split(pesewas: number): { sign: string; cedis: string; rest: string } {
  const abs = Math.abs(pesewas);
  return { sign: pesewas < 0 ? "-" : "", cedis: String(Math.trunc(abs / 100)), rest: String(abs % 100).padStart(2, "0") };
}

/** "1,234.56": thousands separators and two decimals, as people read amounts. */
export function formatPesewas(pesewas: number): string {
  const { sign, cedis, rest } = split(pesewas);
  return `${sign}${cedis.replace(GROUP, ",")}.${rest}`;
}

/** "1234.56": two decimals and no separators, as spreadsheets read amounts (the CSV exports). */
export function plainCedis(pesewas: number): string {
  const { sign, cedis, rest } = split(pesewas);
  return `${sign}${cedis}.${rest}`;
}
