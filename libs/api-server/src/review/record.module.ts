import { Global, Module } from '@nestjs/common';
import { ResearchModule } from '../research/research.module';
import { RecordFreeze, RecordFreezeInterceptor } from './record-freeze';
import { ReviewRepository } from './review.repository';

/**
 * The freeze of an approved test's record, for every module whose routes change a research (FrozenWhenApproved),
 * and the review's data (the report reads the documents issued with a revision).
 */
@Global()
@Module({
  imports: [ResearchModule],
  providers: [RecordFreeze, RecordFreezeInterceptor, ReviewRepository],
  exports: [RecordFreeze, RecordFreezeInterceptor, ReviewRepository],
})
export class RecordModule {}
