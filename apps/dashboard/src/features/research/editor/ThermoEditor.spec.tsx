import { parseThermoConfig } from '@furnace/contracts';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { ApiError } from '../../../api/errors';
import { i18n } from '../../../i18n';
import { renderUi } from '../../../test/render';
import type { EditorMarker } from './markers';
import { ThermoEditor } from './ThermoEditor';
import { editorMarker } from './test-markers';

/*
 * The editor's table, keys, undo/redo, warnings and save in jsdom. jsdom decodes no image, so the
 * canvas stays on its loader here; the canvas itself is driven in Chromium (e2e/thermo-editor.browser-spec.ts).
 */

const PHOTO = { width: 640, height: 400 };

beforeAll(() => {
  // jsdom has no object URLs; the photo never decodes here anyway.
  URL.createObjectURL = () => 'blob:photo';
  URL.revokeObjectURL = () => undefined;
});

const marker = editorMarker;

/** The text of a File (jsdom's File has no text()). */
function read(file: File): Promise<string> {
  return new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.readAsText(file);
  });
}

async function renderEditor(initial: EditorMarker[], onSave = jest.fn<Promise<void>, [File]>(() => Promise.resolve())) {
  const onClose = jest.fn();
  const ui = await renderUi(
    <ThermoEditor
      photo={new Blob(['x'], { type: 'image/png' })}
      photoName="piec.png"
      size={PHOTO}
      initial={initial}
      filename="piec.txt"
      onSave={onSave}
      onClose={onClose}
    />,
  );
  return { ...ui, onSave, onClose };
}

const position = (name: string) => within(rowOf(name)).getByTestId('editor-position').textContent;
const rowOf = (name: string) => screen.getByLabelText(`Nazwa termopary ${name}`).closest('tr') as HTMLElement;
const press = (key: string, init: Partial<KeyboardEventInit> = {}) =>
  fireEvent.keyDown(screen.getByTestId('editor-canvas'), { key, ...init });

describe('the thermocouple editor', () => {
  it('lists every marker as an editable row beside the canvas', async () => {
    await renderEditor([marker(1), marker(2, { name: 'Drzwi', type_name: 'T kątowników', color_hex: '#6D4C41' })]);
    expect(screen.getAllByTestId('editor-row')).toHaveLength(2);
    expect(screen.getByLabelText('Typ termopary Drzwi')).toHaveValue('T kątowników');
    expect(screen.getByLabelText('Rozmiar termopary T1')).toHaveValue('14');
    expect(position('Drzwi')).toBe('200, 100');
    expect(
      screen.getByRole('application', {
        name: 'Zdjęcie piec.png z termoparami (2); te same termopary są w tabeli obok',
      }),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('editor-warnings')).not.toBeInTheDocument();
  });

  it('nudges the selected marker with the arrows (Shift: 10 px) and undoes and redoes with the keys', async () => {
    const { user } = await renderEditor([marker(1), marker(2)]);
    await user.click(screen.getByRole('button', { name: 'Zaznacz termoparę T2' }));
    press('ArrowRight');
    press('ArrowRight');
    press('ArrowDown', { shiftKey: true });
    expect(position('T2')).toBe('202, 110');
    expect(position('T1')).toBe('100, 100');
    press('z', { ctrlKey: true });
    expect(position('T2')).toBe('202, 100');
    press('z', { ctrlKey: true, shiftKey: true });
    expect(position('T2')).toBe('202, 110');
    press('z', { ctrlKey: true });
    press('z', { ctrlKey: true });
    expect(position('T2')).toBe('201, 100');
    press('y', { ctrlKey: true });
    expect(position('T2')).toBe('202, 100');
    // Pushed against the photo's edge, the marker stops with its label inside.
    for (let i = 0; i < 50; i++) press('ArrowUp', { shiftKey: true });
    expect(position('T2')).toBe('202, 5');
  });

  it('changes type (and colour), name and size from the row, each one undo step', async () => {
    const { user } = await renderEditor([marker(1)]);
    await user.selectOptions(screen.getByLabelText('Typ termopary T1'), 'Tmax ościeżnicy');
    expect(screen.getByLabelText('Typ termopary T1')).toHaveValue('Tmax ościeżnicy');
    const name = screen.getByLabelText('Nazwa termopary T1');
    await user.clear(name);
    await user.type(name, 'Zawias;#1{Enter}');
    expect(screen.getByLabelText('Nazwa termopary Zawias1')).toBeInTheDocument();
    const size = screen.getByLabelText('Rozmiar termopary Zawias1');
    await user.clear(size);
    await user.type(size, '20{Enter}');
    expect(position('Zawias1')).toBe('97, 97');

    await user.click(screen.getByRole('button', { name: 'Cofnij (Ctrl+Z)' }));
    expect(position('Zawias1')).toBe('100, 100');
    await user.click(screen.getByRole('button', { name: 'Cofnij (Ctrl+Z)' }));
    await user.click(screen.getByRole('button', { name: 'Cofnij (Ctrl+Z)' }));
    expect(screen.getByLabelText('Typ termopary T1')).toHaveValue('Tmax');
    expect(screen.getByRole('button', { name: 'Cofnij (Ctrl+Z)' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Ponów (Ctrl+Shift+Z)' }));
    expect(screen.getByLabelText('Typ termopary T1')).toHaveValue('Tmax ościeżnicy');
  });

  it('sets the insulation zone (EN 1634-1) of unexposed-face thermocouples, one undo step each, and saves it', async () => {
    const { user, onSave } = await renderEditor([
      marker(1),
      marker(2, { zone: 'I1' }),
      marker(3, { type_name: 'T kątowników', color_hex: '#6D4C41' }),
    ]);
    const zone = (name: string) => screen.getByLabelText(`Strefa izolacyjności termopary ${name}`);
    expect(zone('T1')).toHaveValue('');
    expect(zone('T2')).toHaveValue('I1');
    expect(
      within(zone('T1'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['—', 'I1', 'I2']);
    // A fixing-system thermocouple counts for no class: no zone to choose.
    expect(screen.queryByLabelText('Strefa izolacyjności termopary T3')).not.toBeInTheDocument();

    await user.selectOptions(zone('T1'), 'I2');
    await user.selectOptions(zone('T2'), '');
    expect(zone('T1')).toHaveValue('I2');
    expect(zone('T2')).toHaveValue('');
    await user.click(screen.getByRole('button', { name: 'Cofnij (Ctrl+Z)' }));
    expect(zone('T2')).toHaveValue('I1');
    await user.click(screen.getByRole('button', { name: 'Cofnij (Ctrl+Z)' }));
    expect(zone('T1')).toHaveValue('');
    await user.click(screen.getByRole('button', { name: 'Ponów (Ctrl+Shift+Z)' }));
    expect(zone('T1')).toHaveValue('I2');

    // Retyped to a type without a zone, the marker drops it and its select goes.
    await user.selectOptions(screen.getByLabelText('Typ termopary T2'), 'T');
    expect(screen.queryByLabelText('Strefa izolacyjności termopary T2')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Zapisz' }));
    const text = await read(onSave.mock.calls[0]![0]);
    expect(text.split('\n')[0]).toMatch(/;label_height;zone$/);
    const parsed = parseThermoConfig(new TextEncoder().encode(text), { imageWidth: 640, imageHeight: 400 });
    expect(parsed.ok && parsed.markers.map((m) => [m.thermo_id, m.type_name, m.zone])).toEqual([
      [1, 'Tmax', 'I2'],
      [2, 'T', null],
      [3, 'T kątowników', null],
    ]);
  });

  it('names the zone in English too', async () => {
    await renderEditor([marker(1, { zone: 'I2' })]);
    try {
      await act(() => i18n.changeLanguage('en'));
      expect(screen.getByRole('columnheader', { name: 'Zone' })).toBeInTheDocument();
      expect(screen.getByLabelText('Insulation zone of thermocouple T1')).toHaveValue('I2');
    } finally {
      await act(() => i18n.changeLanguage('pl'));
    }
  });

  it('warns of overlapping labels and of a number used twice', async () => {
    const { user } = await renderEditor([marker(1), marker(2, { label_x: 150 }), marker(3)]);
    const warnings = screen.getByTestId('editor-warnings');
    expect(warnings).toHaveTextContent('Etykiety T1 i T2 nachodzą na siebie');
    const number = screen.getByLabelText('Numer termopary T3');
    await user.clear(number);
    await user.type(number, '2{Enter}');
    expect(warnings).toHaveTextContent('Numer 2 ma więcej niż jedna termopara');
  });

  it('removes the selected marker with Delete or its row button', async () => {
    const { user } = await renderEditor([marker(1), marker(2), marker(3)]);
    await user.click(screen.getByRole('button', { name: 'Zaznacz termoparę T2' }));
    press('Delete');
    await user.click(screen.getByRole('button', { name: 'Usuń termoparę T3' }));
    expect(
      screen
        .getAllByTestId('editor-row')
        .map((row) => within(row).getByRole('textbox', { name: /Nazwa/ }))
        .map((input) => (input as HTMLInputElement).value),
    ).toEqual(['T1']);
  });

  it('saves the markers as a config file the parser reads back', async () => {
    const { user, onSave } = await renderEditor([marker(2, { name: 'Łącznik' }), marker(1)]);
    await user.click(screen.getByRole('button', { name: 'Zapisz' }));
    expect(onSave).toHaveBeenCalledTimes(1);
    const file = onSave.mock.calls[0]![0];
    expect(file.name).toBe('piec.txt');
    const parsed = parseThermoConfig(new TextEncoder().encode(await read(file)), { imageWidth: 640, imageHeight: 400 });
    expect(parsed.ok && parsed.markers.map((m) => [m.thermo_id, m.name])).toEqual([
      [2, 'Łącznik'],
      [1, 'T1'],
    ]);
  });

  it("shows the server's refusal by line and field and marks the row it names", async () => {
    const refusal = new ApiError(422, {
      detail: [
        {
          loc: ['body', 'config_file', 3, 'thermo_id'],
          msg: 'line 3, thermo_id: 1 is already used on line 2',
          type: 'thermo_config',
        },
      ],
    });
    const { user } = await renderEditor(
      [marker(1), marker(2)],
      jest.fn<Promise<void>, [File]>(() => Promise.reject(refusal)),
    );
    await user.click(screen.getByRole('button', { name: 'Zapisz' }));
    expect(await screen.findByTestId('editor-errors')).toHaveTextContent(
      'line 3, thermo_id: 1 is already used on line 2',
    );
    expect(rowOf('T2')).toHaveAttribute('data-flagged', 'true');
    expect(rowOf('T1')).not.toHaveAttribute('data-flagged');
  });

  it('asks before closing with unsaved changes, and closes at once without', async () => {
    const { user, onClose } = await renderEditor([marker(1)]);
    await user.click(screen.getByRole('button', { name: 'Zamknij' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Usuń termoparę T1' }));
    await user.click(screen.getByRole('button', { name: 'Zamknij' }));
    expect(await screen.findByText('Zamknąć edytor bez zapisywania zmian?')).toBeInTheDocument();
    expect(onClose).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Zamknij bez zapisu' }));
    expect(onClose).toHaveBeenCalledTimes(2);
  });
});
