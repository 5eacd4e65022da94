import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiConflictResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { UserEntity } from '@furnace/db';
import { SignedIn, SuperuserOnly } from '../auth/access.decorator';
import { Audited } from '../audit/audited.decorator';
import { CurrentUser } from '../auth/current.decorator';
import { message, MessageDto } from '../core/message.dto';
import { UuidParamPipe } from '../core/validation';
import {
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
  async list(): Promise<FurnacesDto> {
    const data = await this.furnaces.list();
    return { data: data.map(toFurnaceDto), count: data.length };
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
    );
  }

  @Get(':furnace_id')
  @SignedIn()
  @ApiOkResponse({ type: FurnaceDto })
  async get(@Param('furnace_id', UuidParamPipe) id: string): Promise<FurnaceDto> {
    return toFurnaceDto(await this.furnaces.get(id));
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
    return toFurnaceDto(await this.furnaces.update(id, fromFurnaceDto(body), me.email));
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
