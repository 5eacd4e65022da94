import { realArrayLiteral } from './readings.repository';

describe('realArrayLiteral', () => {
  it('writes a real[] literal PostgreSQL reads back as the same values, NULL where a channel has no reading', () => {
    expect(realArrayLiteral([21.4, null, -3.5, 0, 1e-7, 1e21])).toBe('{21.4,NULL,-3.5,0,1e-7,1e+21}');
    expect(realArrayLiteral([])).toBe('{}');
  });
});
