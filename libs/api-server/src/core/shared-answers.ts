/**
 * One answer made for every identical request that arrives while it is made and `ttlMs` after: a crowd
 * opening one live view reads each thing once, not once per client (docs/performance.md, "Clients
 * joining a long test"). Keys start with the research's id and '|' so that a change of the research
 * forgets its answers (`forget`); a failed answer is forgotten at once. At most `max` answers are kept,
 * the oldest go first.
 */
export class SharedAnswers<T> {
  private readonly answers = new Map<string, { at: number; answer: Promise<T> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly max: number,
  ) {}

  get(key: string, make: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const hit = this.answers.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.answer;
    const answer = make();
    this.answers.delete(key);
    this.answers.set(key, { at: now, answer });
    answer.catch(() => {
      if (this.answers.get(key)?.answer === answer) this.answers.delete(key);
    });
    for (const [k, v] of this.answers) {
      if (now - v.at < this.ttlMs && this.answers.size <= this.max) break;
      this.answers.delete(k);
    }
    return answer;
  }

  /** Forgets every answer about `researchId` (a key `${researchId}|…`), or with no argument, all. */
  forget(researchId?: string): void {
    if (researchId === undefined) return this.answers.clear();
    for (const key of this.answers.keys()) if (key.startsWith(`${researchId}|`)) this.answers.delete(key);
  }
}
