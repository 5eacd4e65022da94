import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import type { UserEntity } from '@furnace/db';
import { Audited } from '../audit/audited.decorator';
import { SignedIn, SuperuserOnly } from '../auth/access.decorator';
import { CurrentPrincipal, CurrentUser } from '../auth/current.decorator';
import type { Principal } from '../auth/principal';
import { HEAVY_WORK_REFUSED, HeavyWork, heavyCaller } from '../core/heavy-work';
import { UuidParamPipe } from '../core/validation';
import { ResearchDto, toResearchDto } from '../research/research.dto';
import { NotFrozen } from './record-freeze';
import { ReopenDto, ReviewCommentDto, RevisionsDto, toRevisionDto, VerifyDto } from './review.dto';
import { ReviewService } from './review.service';

const STATE_MACHINE =
  'the review itself: its own rules decide when it may happen (docs/behaviour.md, "The permanent record")';

/**
 * The test's review, approval and reopening, its revisions and the check of its raw data (docs/behaviour.md,
 * "The permanent record"). Staff only; reopening is a superuser's.
 */
@ApiTags('review')
@ApiBearerAuth()
@Controller('research')
export class ReviewController {
  constructor(
    private readonly reviews: ReviewService,
    private readonly heavy: HeavyWork,
  ) {}

  @Post(':id/review')
  @SignedIn()
  @NotFrozen(STATE_MACHINE)
  @Audited('review')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Review an ended test (staff)',
    description:
      'Stores who reviewed it, when, and the comment. Once the test has ended; not again while it is reviewed.',
  })
  @ApiOkResponse({ type: ResearchDto })
  @ApiConflictResponse({
    description: 'The test has not ended, is already reviewed, or is approved (the detail says which)',
  })
  @ApiForbiddenResponse({ description: 'Clients cannot review' })
  @ApiNotFoundResponse({ description: 'Research not found' })
  async review(
    @Param('id', UuidParamPipe) id: string,
    @Body() body: ReviewCommentDto,
    @CurrentUser() user: UserEntity,
  ): Promise<ResearchDto> {
    return toResearchDto(await this.reviews.review(id, user, body.comment ?? null));
  }

  @Post(':id/approve')
  @SignedIn()
  @NotFrozen(STATE_MACHINE)
  @Audited('review')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Approve a reviewed test (staff other than its reviewer)',
    description:
      'Freezes its record and issues its documents as the next revision: report.pdf and classification.pdf in Polish and English, made once, ' +
      "stored, each page's footer naming the revision, the reviewer, the approver and the SHA-256 of the test's raw data.",
  })
  @ApiOkResponse({ type: ResearchDto })
  @ApiConflictResponse({
    description:
      'The test is not reviewed, the approver is its reviewer, or it is approved already (the detail says which)',
  })
  @ApiForbiddenResponse({ description: 'Clients cannot approve' })
  @ApiNotFoundResponse({ description: 'Research not found' })
  async approve(
    @Param('id', UuidParamPipe) id: string,
    @Body() body: ReviewCommentDto,
    @CurrentUser() user: UserEntity,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ResearchDto> {
    return toResearchDto(await this.reviews.approve(id, user, body.comment ?? null, principal));
  }

  @Post(':id/reopen')
  @SuperuserOnly()
  @NotFrozen(STATE_MACHINE)
  @Audited('review')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Reopen an approved test (superusers)',
    description:
      'Back to ended, its record open again, with the reason kept; its revisions and their documents stay. The next approval is the next revision.',
  })
  @ApiOkResponse({ type: ResearchDto })
  @ApiConflictResponse({ description: 'The test is not approved' })
  @ApiForbiddenResponse({ description: 'Not a superuser' })
  @ApiNotFoundResponse({ description: 'Research not found' })
  async reopen(
    @Param('id', UuidParamPipe) id: string,
    @Body() body: ReopenDto,
    @CurrentUser() user: UserEntity,
  ): Promise<ResearchDto> {
    return toResearchDto(await this.reviews.reopen(id, user, body.reason));
  }

  @Get(':id/revisions')
  @SignedIn()
  @ApiOperation({ summary: "The test's revisions with their issued documents (staff)" })
  @ApiOkResponse({ type: RevisionsDto })
  @ApiForbiddenResponse({ description: 'Clients cannot read the revisions' })
  @ApiNotFoundResponse({ description: 'Research not found' })
  async revisions(@Param('id', UuidParamPipe) id: string): Promise<RevisionsDto> {
    return {
      data: (await this.reviews.revisions(id)).map(({ revision, documents }) => toRevisionDto(revision, documents)),
    };
  }

  /** Reads every stored reading: through HeavyWork, as the exports, one at a time per user. */
  @Get(':id/verify')
  @SignedIn()
  @ApiOperation({
    summary: "Hash the test's raw data again and compare it with each revision (staff)",
    description:
      'The SHA-256 of the stored readings as docs/behaviour.md defines it, computed now, and for each revision whether it is still the hash it was approved with.',
  })
  @ApiOkResponse({ type: VerifyDto })
  @ApiForbiddenResponse({ description: 'Clients cannot verify' })
  @ApiNotFoundResponse({ description: 'Research not found' })
  @ApiTooManyRequestsResponse({ description: HEAVY_WORK_REFUSED })
  async verify(
    @Param('id', UuidParamPipe) id: string,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) res: Response,
  ): Promise<VerifyDto | undefined> {
    const checked = await this.heavy.run('verify', heavyCaller(principal), res, (signal) =>
      this.reviews.verify(id, signal),
    );
    if (!checked) return undefined;
    return {
      data_sha256: checked.hash.sha256,
      readings: checked.hash.readings,
      computed_at: checked.at.toISOString(),
      revisions: checked.revisions.map((r) => ({
        revision: r.revision,
        data_sha256: r.dataSha256,
        readings: r.readings,
        matches: r.matches,
      })),
    };
  }
}
