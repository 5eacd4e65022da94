import type { CriteriaView } from '@furnace/contracts';
import { screen } from '@testing-library/react';
import { renderUi } from '../../test/render';
import { CriteriaSummary } from './CriteriaSummary';
import { criteriaSnapshot } from '../../test/criteria-snapshot';

const AUDIT = { t0_override: null, t0_set_by: null, t0_set_at: null };
const NOT_MEASURED = { time: null, minutes: null, reached: false, held_minutes: null, measured: false, deemed: false };

function view(overrides: Partial<CriteriaView> = {}): CriteriaView {
  return { ...criteriaSnapshot(), ended: true, classification_withheld: false, ignition_at: null, ...overrides };
}

describe('CriteriaSummary', () => {
  it('shows d_e red once it was outside its tolerance, with its periods, and the pressure against its target', async () => {
    const criteria = view({
      deviation: {
        d_e: 1.2,
        tolerance: 2.5,
        ok: true,
        periods: [{ from: 750, to: 850, open: false, worst: 20, worst_tolerance: 15, worst_time: 800 }],
        conforming: false,
      },
      pressure: { target: 20, value: 19.8, tolerance: 3, ok: true, periods: [], conforming: true },
    });
    await renderUi(<CriteriaSummary criteria={criteria} audit={AUDIT} observations={[]} names={new Map()} />);
    expect(screen.getByTestId('history-de-value')).toHaveAttribute('data-conforming', 'false');
    expect(screen.getByTestId('history-de-period')).toHaveTextContent(
      '00:12:30–00:14:10, najgorsze +20.00 % przy ±15.00 %',
    );
    expect(screen.getByTestId('history-pressure-value')).toHaveTextContent('19.8 Pa');
    expect(screen.getByTestId('history-pressure-value')).toHaveAttribute('data-conforming', 'true');
    expect(screen.getByTestId('history-pressure-target')).toHaveTextContent('cel 20.0 ± 3.0 Pa');
    expect(screen.queryByTestId('history-pressure-periods')).not.toBeInTheDocument();
  });

  it('a zoned door: a row for I1 and one for I2, and each leaf or frame failure names its class', async () => {
    const failed = (time: number, minutes: number) => ({
      time,
      minutes,
      reached: true,
      held_minutes: minutes,
      measured: true,
      deemed: false,
    });
    const criteria = view({
      insulation_classes: { I1: failed(2085, 34), I2: failed(3290, 54) },
      failures: [
        {
          criterion: 'I_max',
          time: 2085,
          interval_from: null,
          thermo_id: 5,
          type_name: 'Tmax',
          insulation_class: 'I1',
        },
      ],
      classification: 'E 60, EI1 30, EI2 45, EW 60',
    });
    await renderUi(
      <CriteriaSummary criteria={criteria} audit={AUDIT} observations={[]} names={new Map([[5, 'T5']])} />,
    );
    expect(screen.queryByTestId('criteria-row-I')).not.toBeInTheDocument();
    expect(screen.getByTestId('criteria-row-I1')).toHaveTextContent('I100:34:4534');
    expect(screen.getByTestId('criteria-row-I2')).toHaveTextContent('I200:54:5054');
    expect(screen.getByTestId('failure')).toHaveTextContent('(I1)');
  });

  it("writes a criterion not measured as such, and W deemed met with I's minutes", async () => {
    const held = { time: null, minutes: 62, reached: false, held_minutes: 62, measured: true, deemed: false };
    const first = await renderUi(
      <CriteriaSummary
        criteria={view({ criteria: { E: held, I: NOT_MEASURED, W: NOT_MEASURED }, classification: 'E 60' })}
        audit={AUDIT}
        observations={[]}
        names={new Map()}
      />,
    );
    expect(screen.getByTestId('criteria-row-I')).toHaveAttribute('data-state', 'notMeasured');
    expect(screen.getByTestId('criteria-row-I')).toHaveTextContent('I (izolacyjność)nie mierzono---');
    expect(screen.getByTestId('criteria-row-W')).toHaveTextContent('nie mierzono');
    // No pressure target in the profile: no pressure figure.
    expect(screen.queryByTestId('history-pressure')).not.toBeInTheDocument();
    first.unmount();

    await renderUi(
      <CriteriaSummary
        criteria={view({
          criteria: {
            E: held,
            I: { ...held, minutes: 45 },
            W: { ...held, minutes: 45, measured: false, deemed: true },
          },
        })}
        audit={AUDIT}
        observations={[]}
        names={new Map()}
      />,
    );
    expect(screen.getByTestId('criteria-row-W')).toHaveTextContent(
      'W (promieniowanie)uznane za spełnione, dopóki spełnione jest I (brak radiometru)45',
    );
  });
});
