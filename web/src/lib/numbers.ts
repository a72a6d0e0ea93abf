const counts = new Intl.NumberFormat("en-GB");

/** Counts as the site writes them everywhere: "2,500". */
export function formatCount(count: number): string {
  return counts.format(count);
}
