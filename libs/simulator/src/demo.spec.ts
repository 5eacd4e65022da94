import { parseThermoConfig } from '@furnace/contracts';
import { demoConfigText, demoMarkers } from './demo';
import { DEFAULT_SPECIMEN, specimenProfile } from './specimens';
import { demoSpecimenPng } from './demo-image';

describe('the demo specimen', () => {
  it('is a PNG of the size the demo config is checked against', () => {
    const png = demoSpecimenPng();
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([800, 500]);
  });

  it('has a thermocouple config the upload parser accepts, every marker inside the photo', () => {
    const parsed = parseThermoConfig(Buffer.from(demoConfigText()), { imageWidth: 800, imageHeight: 500 });
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.markers.map((m) => m.thermo_id)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
  });

  it("places the simulated door's thermocouples: each marker has the type the simulator warms it as", () => {
    expect(demoMarkers().map((m) => m.type_name)).toEqual(
      specimenProfile(DEFAULT_SPECIMEN)!.channels.map((c) => c.type_name),
    );
  });
});
