/** The Buffer's runs say who made them in words: a seeding mix as shares, every agent explained. */
import { describe, expect, it } from 'vitest';
import { AGENT_HELP, describeRunKind, readMix } from '../../../src/app/buffer/run-kind.ts';
import { SCRIPTED_POLICIES } from '../../../src/envs/episode.ts';

describe('a run\'s origin in words', () => {
  it('reads a seeding mix as percentages and names its agents', () => {
    expect(describeRunKind('seed:oracle=0.4,noisy=0.3,random=0.3')).toEqual({ text: 'seeded by scripted agents: oracle 40%, noisy 30%, random 30%', agents: ['oracle', 'noisy', 'random'] });
    expect(readMix('oracle=3,random=1')).toEqual([{ agent: 'oracle', share: 0.75 }, { agent: 'random', share: 0.25 }]);
    expect(readMix('oracle')).toBeNull();
  });

  it('says where imports and demonstrations came from, and leaves an unknown kind as it is', () => {
    expect(describeRunKind('import:buffer.jsonl').text).toBe('imported from buffer.jsonl');
    expect(describeRunKind('demo:play').text).toBe('played by a person in the Play view');
    expect(describeRunKind('something:else').text).toBe('something:else');
  });

  it('explains every scripted agent the seeding knows', () => {
    expect(Object.keys(AGENT_HELP).sort()).toEqual([...SCRIPTED_POLICIES].sort());
  });
});
