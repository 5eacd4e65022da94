import type { CriteriaEngineInput, CriteriaFrame, CriteriaSnapshot } from './types';

export class CriteriaEngine {
  constructor(private readonly input: CriteriaEngineInput) {}

  push(frame: CriteriaFrame): void {
    void frame;
    throw new Error('CriteriaEngine.push: not yet');
  }

  snapshot(): CriteriaSnapshot {
    throw new Error('CriteriaEngine.snapshot: not yet');
  }
}
