/** "1 day", "2 days": the one place that picks a word's form by count, so labels, notices and the CLI agree. */
export function pluralWord(count: number, one: string, many = `${one}s`): string {
  return count === 1 ? one : many;
}

export function plural(count: number, one: string, many?: string): string {
  return `${count} ${pluralWord(count, one, many)}`;
}
