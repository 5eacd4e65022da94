/*
 * Texts of the temperature history (staff page /research/{id}/history) and of the live curves
 * (public and staff live view), namespace "history". history.en.ts is the English translation.
 */
export const historyPl = {
  link: 'Historia',
  title: 'Historia badania',
  empty: 'Brak zapisanych odczytów tego badania.',
  chart: {
    label: 'Wykres historii badania',
    liveLabel: 'Wykresy na żywo',
    furnace: 'Temperatura w piecu [°C]',
    pk: 'Średnia temperatura w piecu',
    iso834: 'Krzywa normowa ISO 834',
    categories: 'Kategorie termopar [°C]',
    categoryMax: '{{type}} – max',
    categoryMean: '{{type}} – średnia',
    criticalMax: 'kryt. max {{value}} °C',
    criticalMean: 'kryt. śr. {{value}} °C',
    thermocouples: 'Termopary [°C]',
    scalars: 'Promieniowanie [kW/m²] i ciśnienie [Pa]',
    radiance: 'Promieniowanie',
    pressure: 'Ciśnienie',
    more: '+{{count}} więcej',
    loadingDetail: 'Wczytywanie szczegółów…',
    zoomHint: 'Przybliżaj kółkiem myszy, gestem lub suwakiem pod wykresem — szczegóły wczytują się z serwera.',
    resetZoom: 'Cały zakres',
  },
  exceedance: {
    title: 'Przekroczenia wartości krytycznych',
    category: 'Kategoria',
    criterion: 'Kryterium',
    elapsed: 'Czas od rozpoczęcia',
    wallClock: 'Godzina',
    max: 'Tmax > {{value}} °C',
    mean: 'Tśr > {{value}} °C',
    notExceeded: 'Nie przekroczono',
    approx: 'z dokładnością do {{seconds}} s',
    none: 'Żadna kategoria termopar tego badania nie ma wartości krytycznych.',
  },
  thermo: {
    title: 'Termopary',
    all: 'Wszystkie',
    none: 'Żadna',
    shown: 'Widoczne: {{shown}} z {{total}}',
    toggle: 'Pokaż termoparę {{name}}',
  },
  csv: {
    download: 'Pobierz CSV',
    comma: 'Excel (średnik, przecinek dziesiętny)',
    point: 'Przecinek, kropka dziesiętna',
    error: 'Wystąpił błąd podczas pobierania pliku CSV',
  },
};

export type HistoryTranslation = typeof historyPl;
