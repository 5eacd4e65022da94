import { navItemsFor } from './nav-items';

describe('the top bar links', () => {
  it('shows the lab overview to staff and the furnaces page to superusers only', () => {
    const staff = navItemsFor({ is_superuser: false }).map((item) => item.to);
    expect(staff).toContain('/lab');
    expect(staff).not.toContain('/furnaces');
    expect(navItemsFor(undefined).map((item) => item.to)).not.toContain('/furnaces');
    expect(navItemsFor({ is_superuser: true }).map((item) => item.to)).toEqual(
      expect.arrayContaining(['/lab', '/furnaces']),
    );
  });
});
