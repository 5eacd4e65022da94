import {
  applyDecorators,
  type CallHandler,
  ConflictException,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  SetMetadata,
  UseInterceptors,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { concatMap, type Observable } from 'rxjs';
import type { AuthedRequest } from '../auth/principal';
import { AuditService } from '../audit/audit.service';
import { ResearchEvents } from '../research/research-events';
import { type RecordPart, ReviewRepository } from './review.repository';

/*
 * An approved test's record is frozen (docs/behaviour.md, "The permanent record"): every route that changes it
 * says which research it changes, and one interceptor refuses the change with a 409 while that research is
 * approved. The database refuses it too (migration PermanentRecord), for the moment between this check and the write.
 */

export const RECORD_FREEZE = 'furnace:record-freeze';

/** Where a route finds the research it changes: a path parameter or a field of the body, naming the research or a part of it. */
interface FreezeTarget {
  part: RecordPart;
  name: string;
  from: 'param' | 'body';
}

/** What a route that changes something of a research says of the freeze: its target, or why it is not frozen. */
export type FreezeDeclaration = { target: FreezeTarget } | { reason: string };

/** The message of every refusal: the revision, and who may undo it. */
export const frozenMessage = (revision: number) =>
  `the test is approved (revision ${revision}): a superuser must reopen it first`;

/**
 * The one check of every change to a research's record. Also: a change to the record of a reviewed test withdraws
 * its review (back to ended, with an audit entry), so that an approval always approves what its reviewer saw.
 */
@Injectable()
export class RecordFreeze {
  constructor(
    private readonly repo: ReviewRepository,
    private readonly audit: AuditService,
    private readonly events: ResearchEvents,
  ) {}

  /** The research a route's target names, or null when it names nothing that exists (the route answers that). */
  researchOf(part: RecordPart, id: unknown): Promise<string | null> {
    return this.repo.researchOf(part, id);
  }

  /** Throws the 409 while the research is approved. */
  async assertOpen(researchId: string): Promise<void> {
    const revision = await this.repo.approvedRevision(researchId);
    if (revision !== null) throw new ConflictException(frozenMessage(revision));
  }

  /** After a change: a review of the record before it no longer holds. */
  async changed(researchId: string, actor: string | null): Promise<void> {
    const withdrawn = await this.repo.transaction(async (em) => {
      const review = await this.repo.withdrawReview(researchId, em);
      if (review) {
        await this.audit.record(
          {
            actor,
            researchId,
            entity: 'review',
            entityId: researchId,
            action: 'withdraw',
            before: review,
            after: null,
          },
          em,
        );
      }
      return review !== null;
    });
    if (withdrawn) await this.events.changed(researchId, 'RESEARCH');
  }
}

/** The interceptor of `FrozenWhenApproved`: finds the route's research, refuses while it is approved, withdraws a review after. */
@Injectable()
export class RecordFreezeInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly freeze: RecordFreeze,
  ) {}

  async intercept(ctx: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const declaration = this.reflector.get<FreezeDeclaration | undefined>(RECORD_FREEZE, ctx.getHandler());
    if (!declaration || !('target' in declaration)) return next.handle();
    const req = ctx.switchToHttp().getRequest<AuthedRequest & { body?: Record<string, unknown> }>();
    const { part, name, from } = declaration.target;
    const researchId = await this.freeze.researchOf(part, from === 'param' ? req.params[name] : req.body?.[name]);
    // Nothing of that id: the route itself answers (404, or 422 for a malformed one).
    if (researchId === null) return next.handle();
    await this.freeze.assertOpen(researchId);
    const actor = req.principal?.kind === 'user' ? req.principal.user.email : null;
    return next.handle().pipe(
      concatMap(async (result: unknown) => {
        await this.freeze.changed(researchId, actor);
        return result;
      }),
    );
  }
}

/**
 * The route changes the record of the research that `name` names (a path parameter, or a field of the body with
 * `from: 'body'`): the research itself, or a part of it. Refused with 409 while that research is approved.
 * Written above a route's file interceptor, it runs after it: a multipart body's fields are read by then.
 */
export const FrozenWhenApproved = (part: RecordPart, name = 'id', from: 'param' | 'body' = 'param') =>
  applyDecorators(
    SetMetadata(RECORD_FREEZE, { target: { part, name, from } } satisfies FreezeDeclaration),
    UseInterceptors(RecordFreezeInterceptor),
  );

/** A route that changes something of a research which is not its record: why an approval does not freeze it. */
export const NotFrozen = (reason: string) => SetMetadata(RECORD_FREEZE, { reason } satisfies FreezeDeclaration);
