import type { CriteriaView } from '@furnace/contracts';
import { documentText } from '../../test/pdf';
import { criteriaView } from '../../test/report-fixtures';
import { type ClassificationData, renderClassification, testReportReference } from './classification-pdf';
import { type ReportLang, reportTexts } from './report-text';

function classificationData(
  lang: ReportLang,
  criteria: CriteriaView = criteriaView(),
  research: Partial<ClassificationData['research']> = {},
): ClassificationData {
  return {
    lang,
    lab: 'Laboratorium Badań Ogniowych',
    research: {
      name: 'Ściana działowa W-3',
      standard: 'EN_1364_1',
      insulation: null,
      heatingCurve: 'iso834',
      sponsor: 'Budimex-Test Sp. z o.o.',
      manufacturer: 'Płyty Gips S.A.',
      specimenDescription: 'Ściana z płyt gipsowo-kartonowych 2 × 12,5 mm na profilach CW 75, wełna 50 mm.',
      reportNumber: 'LAB/2026/017',
      reportDate: '2026-03-14',
      ...research,
    },
    criteria,
    generatedAt: new Date('2026-03-14T09:00:00Z'),
  };
}

const classificationText = (data: ClassificationData) => documentText(renderClassification(data));

describe('the classification report', () => {
  it('names the element, EN 13501-2, the test report it rests on, each criterion, the verdicts and the class, in Polish', async () => {
    const text = await classificationText(classificationData('pl'));
    expect(text).toContain('LABORATORIUM BADAŃ OGNIOWYCH Raport klasyfikacyjny Klasyfikacja ogniowa według EN 13501-2');
    expect(text).toContain('Badanie Ściana działowa W-3');
    expect(text).toContain('Element (norma badania) EN 1364-1 — ściana nienośna');
    expect(text).toContain('Norma klasyfikacyjna EN 13501-2');
    expect(text).toContain('Sprawozdanie z badania LAB/2026/017 z dnia 14.03.2026');
    expect(text).toContain('Zleceniodawca Budimex-Test Sp. z o.o. Producent Płyty Gips S.A.');
    expect(text).toContain('Klasyfikacja E 30, EI 20');
    // The criteria exactly as the kept view gives them: I failed at 25:00, W deemed while I held.
    expect(text).toContain('E (szczelność) --- 30 min nie osiągnięto');
    expect(text).toContain('I (izolacyjność) 00:25:00 25 min przekroczone');
    expect(text).toContain(
      'W (promieniowanie) --- 25 min nie mierzono; uznane za spełnione, dopóki spełnione jest I (EN 13501-2)',
    );
    expect(text).toContain(
      'Ocena d_e (EN 1363-1 §5.1.2) niezgodne: poza tolerancją (okresy poniżej) Okresy d_e poza tolerancją',
    );
    expect(text).toContain('00:07:00 00:08:30 −16.20 % (tolerancja ±15.0 %) 00:08:00');
    expect(text).toContain(
      'Ocena ciśnienia niezgodne: poza tolerancją (okresy poniżej) Ciśnienie w piecu 21.5 Pa, cel 20.0 Pa',
    );
    expect(text).toContain('00:11:00 00:11:40 24.6 Pa (+4.6 Pa, tolerancja ±3.0 Pa) 00:11:20');
    expect(text).toContain('Klasyfikacja dotyczy wyłącznie badanego elementu');
    expect(text).not.toContain('klasyfikacja wstępna');
    expect(text).toContain('Strona 1 z 1');
  });

  it('writes the same in English', async () => {
    const text = await classificationText(classificationData('en'));
    expect(text).toContain('Classification report Fire resistance classification to EN 13501-2');
    expect(text).toContain('Element (test standard) EN 1364-1 — non-loadbearing wall');
    expect(text).toContain('Classification standard EN 13501-2 Test report LAB/2026/017 of 14.03.2026');
    expect(text).toContain('Classification E 30, EI 20');
    expect(text).toContain('I (insulation) 00:25:00 25 min failed');
    expect(text).toContain('W (radiation) --- 25 min not measured; deemed met while I holds (EN 13501-2)');
    expect(text).toContain('d_e verdict (EN 1363-1 §5.1.2) non-conforming: out of tolerance (periods below)');
    expect(text).toContain('Page 1 of 1');
  });

  it('classifies a DIN 4102-5 door in its own terms, and a door to EN 1634-1 with its insulation class', async () => {
    const view = criteriaView();
    const din = await classificationText(
      classificationData('pl', { ...view, classification: 'T 30' }, { standard: 'DIN_4102_5' }),
    );
    expect(din).toContain('Klasyfikacja ogniowa według DIN 4102-5');
    expect(din).toContain('Norma klasyfikacyjna DIN 4102-5');
    expect(din).toContain('Element (norma badania) DIN 4102-5 — zamknięcie przeciwpożarowe');
    expect(din).toContain('Klasyfikacja T 30');
    expect(din).not.toContain('EN 13501-2 ');
    const door = await classificationText(
      classificationData(
        'en',
        { ...view, classification: 'E 30, EI2 20' },
        { standard: 'EN_1634_1', insulation: 'I2' },
      ),
    );
    expect(door).toContain(
      'Element (test standard) EN 1634-1 — door or shutter Insulation class I2 Classification standard EN 13501-2',
    );
    expect(door).toContain('Classification E 30, EI2 20');
  });

  it('says what nothing measured, what was not judged, and that a running test is classified provisionally', async () => {
    const view = criteriaView();
    const notMeasured = {
      time: null,
      minutes: null,
      reached: false,
      held_minutes: null,
      measured: false,
      deemed: false,
    };
    const text = await classificationText(
      classificationData('pl', {
        ...view,
        ended: false,
        elapsed: 1200,
        pressure: null,
        deviation: { ...view.deviation, periods: [], conforming: null },
        criteria: { E: { ...view.criteria.E, minutes: null, held_minutes: 20 }, I: notMeasured, W: notMeasured },
        classification: 'E 20',
      }),
    );
    expect(text).toContain('I (izolacyjność) --- nie mierzono żadna termopara nie jest liczona do izolacyjności');
    expect(text).toContain('W (promieniowanie) --- nie mierzono brak odczytu promieniowania');
    expect(text).toContain('Ocena d_e (EN 1363-1 §5.1.2) nie oceniono (brak odczytu po 5. minucie)');
    expect(text).toContain('Ocena ciśnienia nie oceniano (profil badania nie podaje ciśnienia docelowego)');
    expect(text).toContain('Badanie jeszcze trwa: klasyfikacja wstępna, stan na 00:20:00.');
  });

  it('rests on the test report as far as it is given', () => {
    const t = reportTexts('pl');
    expect(testReportReference({ reportNumber: 'LAB/2026/017', reportDate: '2026-03-14' }, t)).toBe(
      'LAB/2026/017 z dnia 14.03.2026',
    );
    expect(testReportReference({ reportNumber: 'LAB/2026/017', reportDate: null }, t)).toBe('LAB/2026/017');
    expect(testReportReference({ reportNumber: null, reportDate: '2026-03-14' }, t)).toBe('14.03.2026');
    expect(testReportReference({ reportNumber: null, reportDate: null }, t)).toBe('nie podano');
    expect(testReportReference({ reportNumber: null, reportDate: null }, reportTexts('en'))).toBe('not given');
  });
});
