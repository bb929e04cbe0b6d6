// The settings each profile resolves to, pinned: moving the profiles into cited data (or any later
// edit of a citation) must not change what the loop runs under. A deliberate change of a setting
// updates resolved-settings.snapshot.json in the same change, where review sees it.
import { LOOP_PROFILE_NAMES } from '../policies/loop-settings';
import { profileSettings } from './profiles';
import snapshot from './resolved-settings.snapshot.json';

describe('resolved profile settings', () => {
  it.each(LOOP_PROFILE_NAMES)('%s resolves to its pinned settings', (name) => {
    expect(JSON.parse(JSON.stringify(profileSettings(name)))).toEqual((snapshot as Record<string, unknown>)[name]);
  });
});
