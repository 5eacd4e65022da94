import { Module } from '@nestjs/common';
import { DaqBrokerAccounts } from './daq-broker-accounts';
import { FurnacesController } from './furnaces.controller';
import { FurnacesRepository } from './furnaces.repository';
import { FurnacesService } from './furnaces.service';

@Module({
  controllers: [FurnacesController],
  providers: [FurnacesRepository, FurnacesService, DaqBrokerAccounts],
  exports: [FurnacesRepository, FurnacesService],
})
export class FurnacesModule {}
