import { Module } from '@nestjs/common';
import { ReportModule } from '../report/report.module';
import { ResearchModule } from '../research/research.module';
import { ReviewController } from './review.controller';
import { ReviewService } from './review.service';

/** A test's review, approval and reopening, its revisions and their issued documents (docs/behaviour.md, "The permanent record"). */
@Module({ imports: [ResearchModule, ReportModule], controllers: [ReviewController], providers: [ReviewService] })
export class ReviewModule {}
