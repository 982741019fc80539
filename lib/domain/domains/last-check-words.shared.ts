/**
 * The domain page's sentence for the last DNS check, from what it stored: `lastCheckError` lists each record not
 * found ("SPF missing; DMARC missing (recommended)", lib/domain/domains/dns-records.ts describeProblems), so a check
 * whose only problems are recommended records passed.
 */
export function lastCheckWords(domain: { lastCheckedAt: Date | null; lastCheckError: string | null }): string {
  if (!domain.lastCheckedAt) return "Not checked yet.";
  const problems = domain.lastCheckError;
  if (!problems) return "Passed: every record was found.";
  const onlyRecommended = problems.split("; ").every((problem) => problem.endsWith("(recommended)"));
  return onlyRecommended ? `Passed; still recommended: ${problems}.` : `Last check failed: ${problems}.`;
}
