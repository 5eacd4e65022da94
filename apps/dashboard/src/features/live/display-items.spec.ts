import type { ResearchUrl, ThermoConfig } from '../../api/research-types';
import { cycleKey, displayItems, selectedIndex } from './display-items';

const RESEARCH = '3f1e1c9a-8d3b-4a6e-9f0e-1b2c3d4e5f60';
const config = (id: string): ThermoConfig => ({
  id,
  research_id: RESEARCH,
  image_filename: `${id}.png`,
  config_filename: `${id}.txt`,
  image_width: 800,
  image_height: 500,
});
const url = (id: string, link: string): ResearchUrl => ({ id, url: link, research_id: RESEARCH });

const ITEMS = displayItems(
  [config('p1'), config('p2')],
  [
    url('u1', 'https://www.youtube.com/watch?v=aqz-KE-bpKQ&t=42'),
    url('bad', 'javascript:alert(1)'),
    url('u2', 'https://cams.example.com/piec3/index.m3u8'),
  ],
);

describe('displayItems', () => {
  it('lists the photos, then the cameras; a link that cannot be embedded is left out', () => {
    expect(ITEMS.map((item) => item.key)).toEqual(['photo:p1', 'photo:p2', 'camera:u1', 'camera:u2']);
    expect(ITEMS[2]).toMatchObject({
      kind: 'camera',
      index: 0,
      count: 2,
      embed: { kind: 'iframe', src: 'https://www.youtube.com/embed/aqz-KE-bpKQ?autoplay=1&mute=1' },
    });
    expect(ITEMS[3]).toMatchObject({ kind: 'camera', index: 1, count: 2, embed: { kind: 'hls' } });
    expect(ITEMS[1]).toMatchObject({ kind: 'photo', index: 1, count: 2 });
  });
});

describe('cycling', () => {
  it('selects the first when none (or a removed one) is selected', () => {
    expect(selectedIndex(ITEMS, null)).toBe(0);
    expect(selectedIndex(ITEMS, 'camera:gone')).toBe(0);
    expect(selectedIndex([], null)).toBe(-1);
  });

  it('goes forward through photos then cameras and wraps around both ends', () => {
    const visited: (string | null)[] = [];
    let key: string | null = null;
    for (let i = 0; i < 5; i++) {
      key = cycleKey(ITEMS, key, 1);
      visited.push(key);
    }
    expect(visited).toEqual(['photo:p2', 'camera:u1', 'camera:u2', 'photo:p1', 'photo:p2']);
    expect(cycleKey(ITEMS, null, -1)).toBe('camera:u2');
    expect(cycleKey(ITEMS, 'camera:u1', -1)).toBe('photo:p2');
    expect(cycleKey([], null, 1)).toBeNull();
  });
});
