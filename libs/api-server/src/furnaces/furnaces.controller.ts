import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiConflictResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { UserEntity } from '@furnace/db';
import { SignedIn, SuperuserOnly } from '../auth/access.decorator';
import { Audited } from '../audit/audited.decorator';
import { CurrentUser } from '../auth/current.decorator';
import { message, MessageDto } from '../core/message.dto';
import { UuidParamPipe } from '../core/validation';
import {
  DaqCredentialIssuedDto,
  FurnaceCreateDto,
  FurnaceDto,
  FurnacesDto,
  FurnaceUpdateDto,
  fromFurnaceDto,
  toFurnaceDto,
} from './furnace.dto';
import { FurnacesService } from './furnaces.service';

/** The lab's furnaces (docs/behaviour.md, "Furnaces"): staff read them to schedule tests, superusers manage them. */
@ApiTags('furnaces')
@ApiBearerAuth()
@Controller('furnaces')
export class FurnacesController {
  constructor(private readonly furnaces: FurnacesService) {}

  @Get()
  @SignedIn()
  @ApiOkResponse({ type: FurnacesDto, description: 'Every furnace, by code' })
  async list(@CurrentUser() me: UserEntity): Promise<FurnacesDto> {
    const [data, credentials] = await Promise.all([this.furnaces.list(), this.furnaces.credentials()]);
    return { data: data.map((f) => toFurnaceDto(f, credentials.get(f.id) ?? null, me)), count: data.length };
  }

  @Post()
  @SuperuserOnly()
  @Audited('furnace')
  @HttpCode(200)
  @ApiOkResponse({ type: FurnaceDto })
  @ApiConflictResponse({ description: 'Another furnace has this code' })
  async create(@Body() body: FurnaceCreateDto, @CurrentUser() me: UserEntity): Promise<FurnaceDto> {
    return toFurnaceDto(
      await this.furnaces.create({ ...fromFurnaceDto(body), name: body.name, code: body.code }, me.email),
      null,
      me,
    );
  }

  @Get(':furnace_id')
  @SignedIn()
  @ApiOkResponse({ type: FurnaceDto })
  async get(@Param('furnace_id', UuidParamPipe) id: string, @CurrentUser() me: UserEntity): Promise<FurnaceDto> {
    const [furnace, credential] = await Promise.all([this.furnaces.get(id), this.furnaces.credential(id)]);
    return toFurnaceDto(furnace, credential, me);
  }

  @Patch(':furnace_id')
  @SuperuserOnly()
  @Audited('furnace')
  @ApiOkResponse({ type: FurnaceDto })
  @ApiConflictResponse({ description: 'Another furnace has this code' })
  async update(
    @Param('furnace_id', UuidParamPipe) id: string,
    @Body() body: FurnaceUpdateDto,
    @CurrentUser() me: UserEntity,
  ): Promise<FurnaceDto> {
    const furnace = await this.furnaces.update(id, fromFurnaceDto(body), me.email);
    return toFurnaceDto(furnace, await this.furnaces.credential(id), me);
  }

  @Post(':furnace_id/daq-credential')
  @SuperuserOnly()
  @Audited('furnace')
  @HttpCode(200)
  @ApiOperation({
    summary: "Issues or rotates the furnace DAQ's MQTT credential",
    description:
      'The password is in this answer only (the system keeps its hash). Calling it again replaces it: the old ' +
      'password stops working at once and the DAQ\'s open connections are closed (docs/behaviour.md, "DAQ credentials").',
  })
  @ApiOkResponse({ type: DaqCredentialIssuedDto })
  async issueDaqCredential(
    @Param('furnace_id', UuidParamPipe) id: string,
    @CurrentUser() me: UserEntity,
  ): Promise<DaqCredentialIssuedDto> {
    const issued = await this.furnaces.issueDaqCredential(id, me.email);
    return {
      username: issued.credential.username,
      issued_at: issued.credential.issuedAt.toISOString(),
      password: issued.password,
      topic: `lab/${issued.code}/data`,
      rotated: issued.rotated,
    };
  }

  @Delete(':furnace_id')
  @SuperuserOnly()
  @Audited('furnace')
  @ApiOkResponse({ type: MessageDto })
  @ApiConflictResponse({ description: 'Tests were scheduled on the furnace: it is kept' })
  async delete(@Param('furnace_id', UuidParamPipe) id: string, @CurrentUser() me: UserEntity): Promise<MessageDto> {
    await this.furnaces.delete(id, me.email);
    return message('Furnace deleted successfully');
  }
}
