import { navItemsFor } from './nav-items';

describe('the top bar links', () => {
  it('shows the lab overview and the furnaces page to all staff: staff attach unassigned readings there', () => {
    for (const user of [{ is_superuser: false }, { is_superuser: true }, undefined]) {
      expect(navItemsFor(user).map((item) => item.to)).toEqual(expect.arrayContaining(['/lab', '/furnaces']));
    }
  });
});
