import { formatDeviation, formatTestTime } from '@furnace/contracts';
import { fill } from '@furnace/text';
import { formatCelsius, reportFilename, reportTexts } from './report-text';

describe('report texts and number formats', () => {
  // Both languages' keys and placeholders: libs/text/src/catalogue.spec.ts.
  it("takes the catalogue's report texts in the language asked for", () => {
    expect(fill(reportTexts('pl').page, { n: 1, total: 5 })).toBe('Strona 1 z 5');
    expect(fill(reportTexts('en').page, { n: 2, total: 5 })).toBe('Page 2 of 5');
    expect(reportTexts('pl').criterionName.I).toBe('I (izolacyjność)');
    expect(reportTexts('en').observation.cotton_pad).toBe('Cotton pad ignited');
  });

  it('writes test times hh:mm:ss, temperatures with one decimal and d_e with a real minus', () => {
    expect(formatTestTime(3000)).toBe('00:50:00');
    expect(formatTestTime(-30)).toBe('−00:00:30');
    expect(formatTestTime(null)).toBe('---');
    expect(formatCelsius(20.46)).toBe('20.5 °C');
    expect(formatCelsius(null)).toBe('---');
    expect(formatDeviation(-5.004)).toBe('−5.00 %');
    expect(formatDeviation(-0.001)).toBe('0.00 %');
    expect(formatDeviation(2)).toBe('2.00 %');
  });

  it("names the file after the research: an ASCII fallback and the name as typed, with the language's prefix", () => {
    const id = '0b9c2f0e-1111-2222-3333-444455556666';
    expect(reportFilename(id, 'Ściana EI 60', 'pl')).toEqual({
      ascii: 'raport-Sciana-EI-60-0b9c2f0e.pdf',
      utf8: 'raport-Ściana EI 60.pdf',
    });
    expect(reportFilename(id, 'Ściana EI 60', 'en').ascii).toBe('report-Sciana-EI-60-0b9c2f0e.pdf');
  });
});
