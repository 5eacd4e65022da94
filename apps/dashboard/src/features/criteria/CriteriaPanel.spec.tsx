import { screen, within } from '@testing-library/react';
import { renderUi } from '../../test/render';
import { CategoryRises, CriteriaPanel } from './CriteriaPanel';
import { criteriaSnapshot } from '../../test/criteria-snapshot';

const NAMES = new Map([
  [1, 'T1'],
  [2, 'T2'],
]);

describe('CriteriaPanel', () => {
  it('shows T0, d_e in green within its tolerance, the criteria held and the class', async () => {
    await renderUi(<CriteriaPanel snapshot={criteriaSnapshot()} names={NAMES} />);
    expect(screen.getByTestId('criteria-t0-value')).toHaveTextContent('20.3 °C');
    expect(screen.getByTestId('criteria-t0-source')).toHaveTextContent('automatycznie');
    const de = screen.getByTestId('criteria-de-value');
    expect(de).toHaveTextContent('−5.00 %');
    expect(de).toHaveAttribute('data-ok', 'true');
    expect(screen.getByTestId('criteria-de-tolerance')).toHaveTextContent('tolerancja ±5.00 %');
    expect(screen.getByTestId('criterion-E')).toHaveTextContent('50 min');
    expect(screen.getByTestId('criteria-class-value')).toHaveTextContent('E 45, EI 45, EW 45');
    expect(screen.queryByTestId('criteria-forecast')).not.toBeInTheDocument();
  });

  it('a zoned door: I1 and I2 each with its own time; a client from whom the lab withholds the class sees neither class nor minutes', async () => {
    const held = { measured: true, deemed: false };
    const door = criteriaSnapshot({
      insulation_classes: {
        I1: { time: 1800, minutes: 30, reached: true, held_minutes: 30, ...held },
        I2: { time: null, minutes: null, reached: false, held_minutes: 50, ...held },
      },
      classification: 'E 45, EI1 30, EI2 45, EW 45',
    });
    const { unmount } = await renderUi(<CriteriaPanel snapshot={door} names={NAMES} />);
    expect(screen.queryByTestId('criterion-I')).not.toBeInTheDocument();
    expect(screen.getByTestId('criterion-I1')).toHaveAttribute('data-failed', 'true');
    expect(screen.getByTestId('criterion-I1')).toHaveTextContent('00:30:00');
    expect(screen.getByTestId('criterion-I2')).toHaveTextContent('I250 min');
    unmount();
    const withheld = {
      ...criteriaSnapshot({ classification: null }),
      classification_withheld: true,
      criteria: {
        E: { time: null, minutes: null, reached: false, held_minutes: null, ...held },
        I: { time: null, minutes: null, reached: false, held_minutes: null, ...held },
        W: { time: null, minutes: null, reached: false, held_minutes: null, ...held },
      },
    };
    await renderUi(<CriteriaPanel snapshot={withheld} names={NAMES} />);
    expect(screen.getByTestId('criteria-class-value')).toHaveTextContent('laboratorium nie udostępnia klasyfikacji');
    expect(screen.getByTestId('criterion-E')).toHaveTextContent('---');
    expect(screen.getByTestId('criterion-E')).not.toHaveTextContent('0 min');
  });

  it('turns d_e red outside the tolerance, shows failures, the forecast, suspects and exclusions', async () => {
    const snapshot = criteriaSnapshot({
      deviation: {
        d_e: -20.42,
        tolerance: 15,
        ok: false,
        periods: [{ from: 700, to: 760, open: true, worst: -20.42, worst_tolerance: 15, worst_time: 760 }],
        conforming: false,
      },
      criteria: {
        E: { time: 3820, minutes: 63, reached: true, held_minutes: 63, measured: true, deemed: false },
        I: { time: null, minutes: null, reached: false, held_minutes: 50, measured: true, deemed: false },
        W: { time: null, minutes: null, reached: false, held_minutes: 50, measured: true, deemed: false },
      },
      forecast: [{ criterion: 'I_mean', eta_s: 245, rate_k_per_min: 3.64 }],
      suspects: [{ thermo_id: 2, reason: 'fault', time: 900 }],
      excluded: [1],
    });
    await renderUi(<CriteriaPanel snapshot={snapshot} names={NAMES} />);
    expect(screen.getByTestId('criteria-de-value')).toHaveAttribute('data-ok', 'false');
    expect(screen.getByTestId('criteria-de-period')).toHaveTextContent(
      '00:11:40–trwa, najgorsze −20.42 % przy ±15.00 %',
    );
    expect(screen.getByTestId('criterion-E')).toHaveAttribute('data-failed', 'true');
    expect(screen.getByTestId('criterion-E')).toHaveTextContent('przekroczone w 01:03:40');
    expect(screen.getByTestId('forecast-row')).toHaveTextContent('I – średnia za 4:05 (przyrost 3.6 K/min)');
    expect(screen.getByTestId('suspect')).toHaveTextContent('T2: awaria kanału');
    expect(screen.getByTestId('criteria-excluded')).toHaveTextContent('T1');
  });

  it('keeps d_e red once it was outside its tolerance, listing each period', async () => {
    const snapshot = criteriaSnapshot({
      deviation: {
        d_e: -4,
        tolerance: 7.5,
        ok: true,
        periods: [
          { from: 400, to: 470, open: false, worst: 17.5, worst_tolerance: 15, worst_time: 450 },
          { from: 1500, to: 1560, open: false, worst: -9.1, worst_tolerance: 5.5, worst_time: 1530 },
        ],
        conforming: false,
      },
    });
    await renderUi(<CriteriaPanel snapshot={snapshot} names={NAMES} />);
    const de = screen.getByTestId('criteria-de-value');
    expect(de).toHaveAttribute('data-ok', 'true');
    expect(de).toHaveAttribute('data-conforming', 'false');
    expect(de).toHaveAttribute('title', 'była poza tolerancją w trakcie badania');
    expect(screen.getAllByTestId('criteria-de-period').map((p) => p.textContent)).toEqual([
      '00:06:40–00:07:50, najgorsze +17.50 % przy ±15.00 %',
      '00:25:00–00:26:00, najgorsze −9.10 % przy ±5.50 %',
    ]);
    // No pressure target in the profile: no pressure row.
    expect(screen.queryByTestId('criteria-pressure')).not.toBeInTheDocument();
  });

  it('shows the furnace pressure against its target ± tolerance, with its periods', async () => {
    const snapshot = criteriaSnapshot({
      pressure: {
        target: 20,
        value: 18.46,
        tolerance: 3,
        ok: true,
        periods: [{ from: 620, to: 700, open: false, worst: 4.2, worst_tolerance: 3, worst_time: 650 }],
        conforming: false,
      },
    });
    await renderUi(<CriteriaPanel snapshot={snapshot} names={NAMES} />);
    expect(screen.getByTestId('criteria-pressure-value')).toHaveTextContent('18.5 Pa');
    expect(screen.getByTestId('criteria-pressure-value')).toHaveAttribute('data-conforming', 'false');
    expect(screen.getByTestId('criteria-pressure-target')).toHaveTextContent('cel 20.0 ± 3.0 Pa');
    expect(screen.getByTestId('criteria-pressure-period')).toHaveTextContent(
      '00:10:20–00:11:40, najgorsze +4.2 Pa przy ±3.0 Pa',
    );
    expect(screen.queryByTestId('criteria-de-periods')).not.toBeInTheDocument();
  });

  it('never shows a criterion not measured as held; W without a radiometer deemed met while I holds', async () => {
    const notMeasured = {
      time: null,
      minutes: null,
      reached: false,
      held_minutes: null,
      measured: false,
      deemed: false,
    };
    const held = { time: null, minutes: null, reached: false, held_minutes: 50, measured: true, deemed: false };
    const first = await renderUi(
      <CriteriaPanel
        snapshot={criteriaSnapshot({ criteria: { E: held, I: notMeasured, W: notMeasured } })}
        names={NAMES}
      />,
    );
    expect(screen.getByTestId('criterion-I')).toHaveTextContent('nie mierzono');
    expect(screen.getByTestId('criterion-I')).not.toHaveTextContent('min');
    expect(screen.getByTestId('criterion-W')).toHaveTextContent('nie mierzono');
    first.unmount();

    await renderUi(
      <CriteriaPanel
        snapshot={criteriaSnapshot({
          criteria: {
            E: held,
            I: { ...held, held_minutes: 42 },
            W: { ...held, held_minutes: 42, measured: false, deemed: true },
          },
        })}
        names={NAMES}
      />,
    );
    const w = screen.getByTestId('criterion-W');
    expect(w).toHaveAttribute('data-state', 'deemed');
    expect(w).toHaveTextContent('42 min');
    expect(w).toHaveTextContent('uznane za spełnione, dopóki spełnione jest I (brak radiometru)');
  });

  it('leaves W out where radiation is not measured', async () => {
    await renderUi(<CriteriaPanel snapshot={criteriaSnapshot()} names={NAMES} radiation={false} />);
    expect(screen.getByTestId('criterion-I')).toBeInTheDocument();
    expect(screen.queryByTestId('criterion-W')).not.toBeInTheDocument();
  });

  it('shows before any data that nothing is known yet', async () => {
    await renderUi(<CriteriaPanel snapshot={null} names={NAMES} />);
    expect(screen.getByTestId('criteria-t0-value')).toHaveTextContent('jeszcze nieznana');
    expect(screen.getByTestId('criteria-de-value')).toHaveTextContent('---');
    expect(screen.getByTestId('criteria-class-value')).toHaveTextContent('---');
  });
});

describe('CategoryRises', () => {
  it("prints each counted rise against its limit as 'T0 + 180 K = 200.3 °C', red above it", async () => {
    const snapshot = criteriaSnapshot();
    const over = { ...snapshot.categories[0]!, max: 201.5, max_rise: 181.2, mean: 150, mean_rise: 129.7 };
    await renderUi(<CategoryRises category={over} snapshot={snapshot} />);
    const max = screen.getByTestId('category-max');
    expect(max).toHaveTextContent('+181.2 K · 201.5 °C');
    expect(max).toHaveAttribute('data-exceeded', 'true');
    expect(screen.getByTestId('category-max-limit')).toHaveTextContent('≤ T0 + 180 K = 200.3 °C');
    expect(screen.getByTestId('category-mean')).toHaveAttribute('data-exceeded', 'false');
    expect(screen.getByTestId('category-mean-limit')).toHaveTextContent('≤ T0 + 140 K = 160.3 °C');
    expect(within(screen.getByTestId('category-criteria')).queryByTestId('category-frame')).not.toBeInTheDocument();
  });

  it('on the absolute basis prints value / limit in °C', async () => {
    const snapshot = criteriaSnapshot({
      basis: 'absolute',
      limits: { mean: { k: null, c: 140, text: '140 °C' }, max: { k: null, c: 180, text: '180 °C' }, frame: null },
    });
    await renderUi(<CategoryRises category={snapshot.categories[0]!} snapshot={snapshot} />);
    expect(screen.getByTestId('category-max')).toHaveTextContent('100.0 / 180.0 °C');
    expect(screen.queryByTestId('category-max-limit')).not.toBeInTheDocument();
  });
});
