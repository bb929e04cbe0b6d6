import { COUNCIL_SYSTEM_PROMPTS, councilToolPolicy } from './council-policy';
import type { CouncilRole } from './council-policy';

describe('councilToolPolicy', () => {
  it.each<CouncilRole>(['member', 'discusser', 'reviewer'])('disables tools and gives a reasoning-only prompt to a council %s', (role) => {
    expect(councilToolPolicy(role)).toEqual({ toolsEnabled: false, role, systemPrompt: COUNCIL_SYSTEM_PROMPTS[role] });
    expect(COUNCIL_SYSTEM_PROMPTS[role]).toContain('You have no tools in this session.');
  });

  it('keeps tools for a session outside the council', () => {
    expect(councilToolPolicy()).toEqual({ toolsEnabled: true });
  });

  it('gives each role its own instructions', () => {
    expect(new Set(Object.values(COUNCIL_SYSTEM_PROMPTS)).size).toBe(3);
  });
});
