import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { UuidParamPipe } from '../core/validation';
import { ApiBadGatewayResponse, ApiBearerAuth, ApiConflictResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { UserEntity } from '@furnace/db';
import { SignedIn } from '../auth/access.decorator';
import { CurrentUser } from '../auth/current.decorator';
import { Audited } from '../audit/audited.decorator';
import { message, MessageDto } from '../core/message.dto';
import { EmailCreateDto, EmailRecordDto, EmailRecordsDto, EmailUpdateDto, toEmailDto } from './email.dto';
import { EmailsService } from './emails.service';
import { NotFrozen } from '../review/record-freeze';

/** Clients' e-mail addresses are staff-only: a client never sees the list, not even their own record. */
@ApiTags('emails')
@ApiBearerAuth()
@Controller('research')
export class EmailsController {
  constructor(private readonly emails: EmailsService) {}

  @Get(':research_id/emails')
  @SignedIn()
  @ApiOkResponse({ type: EmailRecordsDto })
  async list(@Param('research_id', UuidParamPipe) researchId: string): Promise<EmailRecordsDto> {
    return { data: (await this.emails.list(researchId)).map(toEmailDto) };
  }

  @Post(':research_id/emails/send')
  @SignedIn()
  @Audited('email')
  @NotFrozen('who is invited to watch: access, not the record; revoking it stays possible on an approved test')
  @HttpCode(200)
  @ApiOkResponse({ type: EmailRecordsDto, description: 'Every record of the research after sending' })
  @ApiBadGatewayResponse({ description: 'The mail server refused some invitations; the others are marked sent' })
  async sendAll(
    @Param('research_id', UuidParamPipe) researchId: string,
    @CurrentUser() user: UserEntity,
  ): Promise<EmailRecordsDto> {
    return { data: (await this.emails.sendAll(researchId, user.email)).map(toEmailDto) };
  }

  @Post('emails')
  @SignedIn()
  @Audited('email')
  @NotFrozen('who is invited to watch: access, not the record; revoking it stays possible on an approved test')
  @HttpCode(200)
  @ApiOkResponse({ type: EmailRecordDto })
  @ApiConflictResponse({ description: 'The address is already on the list' })
  async create(@Body() body: EmailCreateDto, @CurrentUser() user: UserEntity): Promise<EmailRecordDto> {
    return toEmailDto(await this.emails.create(body.research_id, body.email, body.lang, user.email));
  }

  @Get('emails/:id')
  @SignedIn()
  @ApiOkResponse({ type: EmailRecordDto })
  async get(@Param('id', UuidParamPipe) id: string): Promise<EmailRecordDto> {
    return toEmailDto(await this.emails.get(id));
  }

  @Put('emails/:id')
  @SignedIn()
  @Audited('email')
  @NotFrozen('who is invited to watch: access, not the record; revoking it stays possible on an approved test')
  @ApiOkResponse({
    type: EmailRecordDto,
    description: 'A changed address gets a new access code (id) and is not sent yet',
  })
  async update(
    @Param('id', UuidParamPipe) id: string,
    @Body() body: EmailUpdateDto,
    @CurrentUser() user: UserEntity,
  ): Promise<EmailRecordDto> {
    return toEmailDto(await this.emails.update(id, body.email, user.email));
  }

  @Delete('emails/:id')
  @SignedIn()
  @Audited('email')
  @NotFrozen('who is invited to watch: access, not the record; revoking it stays possible on an approved test')
  @ApiOkResponse({ type: MessageDto, description: "Revokes the client's access" })
  async delete(@Param('id', UuidParamPipe) id: string, @CurrentUser() user: UserEntity): Promise<MessageDto> {
    await this.emails.delete(id, user.email);
    return message('E-mail deleted successfully');
  }

  @Post('emails/:id/send')
  @SignedIn()
  @Audited('email')
  @NotFrozen('who is invited to watch: access, not the record; revoking it stays possible on an approved test')
  @HttpCode(200)
  @ApiOkResponse({ type: EmailRecordDto })
  @ApiBadGatewayResponse({ description: 'The mail server did not accept the message; is_sent stays false' })
  async send(@Param('id', UuidParamPipe) id: string, @CurrentUser() user: UserEntity): Promise<EmailRecordDto> {
    return toEmailDto(await this.emails.send(id, user.email));
  }
}
