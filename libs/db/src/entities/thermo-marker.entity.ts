import { randomUUID } from 'node:crypto';
import type { ThermoMarker, ThermoZone } from '@furnace/contracts';
import { Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { ThermoConfigEntity } from './thermo-config.entity';

/** One thermocouple drawn on a config's photo: a marker square and a label box, in photo pixels. */
@Entity('thermo_marker')
@Unique('UQ_thermo_marker_config_id_thermo_id', ['configId', 'thermoId'])
export class ThermoMarkerEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'uuid' })
  configId!: string;

  @ManyToOne(() => ThermoConfigEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'config_id' })
  config?: ThermoConfigEntity;

  /** Channel number: the DAQ's thermocouples_out[thermoId - 1]. */
  @Column({ type: 'integer' })
  thermoId!: number;

  @Column({ type: 'varchar', length: 64 })
  name!: string;

  @Column({ type: 'varchar', length: 64 })
  typeName!: string;

  @Column({ type: 'varchar', length: 7 })
  colorHex!: string;

  @Column({ type: 'real' })
  itemX!: number;

  @Column({ type: 'real' })
  itemY!: number;

  @Column({ type: 'real' })
  itemSize!: number;

  @Column({ type: 'real' })
  labelX!: number;

  @Column({ type: 'real' })
  labelY!: number;

  @Column({ type: 'real' })
  labelWidth!: number;

  @Column({ type: 'real' })
  labelHeight!: number;

  /** EN 1634-1 insulation class the thermocouple counts for: 'I1' or 'I2' only, null for both. */
  @Column({ type: 'varchar', length: 2, nullable: true })
  zone!: ThermoZone | null;

  /** The row of one marker parsed from a config file (libs/contracts' parser). */
  static fromMarker(configId: string, m: ThermoMarker): ThermoMarkerEntity {
    return Object.assign(new ThermoMarkerEntity(), {
      id: randomUUID(),
      configId,
      thermoId: m.thermo_id,
      name: m.name,
      typeName: m.type_name,
      colorHex: m.color_hex,
      itemX: m.item_x,
      itemY: m.item_y,
      itemSize: m.item_size,
      labelX: m.label_x,
      labelY: m.label_y,
      labelWidth: m.label_width,
      labelHeight: m.label_height,
      zone: m.zone,
    });
  }
}
