import { Controller, Get, NotFoundException, Param, Query } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { findResearchHeader, queryOn } from '@furnace/db';
import { SignedIn, SuperuserOnly } from '../auth/access.decorator';
import { UuidParamPipe } from '../core/validation';
import { AuditEntriesDto, AuditPageQueryDto, AuditSearchQueryDto, toAuditEntryDto } from './audit.dto';
import { type AuditFilter, AuditRepository } from './audit.repository';

/**
 * Reading the audit trail (docs/behaviour.md, "The audit trail"): a test's own trail is staff's, the whole trail
 * superusers'. A client's viewer token gets 403, no token 401.
 */
@ApiTags('audit')
@ApiBearerAuth()
@Controller()
export class AuditController {
  constructor(
    private readonly repo: AuditRepository,
    private readonly dataSource: DataSource,
  ) {}

  @Get('research/:id/audit')
  @SignedIn()
  @ApiOperation({
    summary: "A research's change history (staff)",
    description:
      'Every change to the research, its thermocouple configs, exclusions, observations, drawings, invited e-mails and stream links: who, when, what, before and after. Newest first, a page at a time.',
  })
  @ApiOkResponse({ type: AuditEntriesDto })
  @ApiUnauthorizedResponse({ description: 'No token' })
  @ApiForbiddenResponse({ description: "A client's viewer token: the trail is the lab's" })
  @ApiNotFoundResponse({ description: 'No such research (a deleted one: GET /audit?research_id=)' })
  async research(@Param('id', UuidParamPipe) id: string, @Query() q: AuditPageQueryDto): Promise<AuditEntriesDto> {
    if (!(await findResearchHeader(queryOn(this.dataSource), id))) throw new NotFoundException('Research not found');
    return this.page({ researchId: id }, q);
  }

  @Get('audit')
  @SuperuserOnly()
  @ApiOperation({
    summary: 'The whole audit trail (superusers)',
    description:
      "Every change to any research and to any user's account and rights, filtered by who made it, the research and the time; newest first.",
  })
  @ApiOkResponse({ type: AuditEntriesDto })
  @ApiUnauthorizedResponse({ description: 'No token' })
  @ApiForbiddenResponse({ description: 'Not a superuser' })
  search(@Query() q: AuditSearchQueryDto): Promise<AuditEntriesDto> {
    return this.page(
      {
        actor: q.actor,
        researchId: q.research_id?.toLowerCase(),
        from: q.from === undefined ? undefined : new Date(q.from),
        to: q.to === undefined ? undefined : new Date(q.to),
      },
      q,
    );
  }

  private async page(filter: AuditFilter, q: AuditPageQueryDto): Promise<AuditEntriesDto> {
    const { data, count } = await this.repo.page(filter, (q.page - 1) * q.per_page, q.per_page);
    const names = await this.repo.researchNames([
      ...new Set(data.flatMap((e) => (e.researchId ? [e.researchId] : []))),
    ]);
    return {
      data: data.map((e) => toAuditEntryDto(e, e.researchId ? (names.get(e.researchId) ?? null) : null)),
      count,
      page: q.page,
      per_page: q.per_page,
    };
  }
}
