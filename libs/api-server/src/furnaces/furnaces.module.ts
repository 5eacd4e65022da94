import { Module } from '@nestjs/common';
import { FurnacesController } from './furnaces.controller';
import { FurnacesRepository } from './furnaces.repository';
import { FurnacesService } from './furnaces.service';

@Module({
  controllers: [FurnacesController],
  providers: [FurnacesRepository, FurnacesService],
  exports: [FurnacesRepository, FurnacesService],
})
export class FurnacesModule {}
