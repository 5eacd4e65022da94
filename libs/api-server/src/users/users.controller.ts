import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import type { ApiConfig } from '@furnace/config';
import type { UserEntity } from '@furnace/db';
import { PasswordChangePending } from '../auth/access.decorator';
import { RateLimited } from '../auth/login-throttler.guard';
import { APP_CONFIG } from '../core/tokens';
import { Public, SignedIn, SuperuserOnly } from '../auth/access.decorator';
import { Audited } from '../audit/audited.decorator';
import { CurrentUser } from '../auth/current.decorator';
import { message, MessageDto } from '../core/message.dto';
import { UuidParamPipe } from '../core/validation';
import {
  fromUserDto,
  ListUsersQueryDto,
  toUserDto,
  UpdatePasswordDto,
  UserCreateDto,
  UserPublicDto,
  UserRegisterDto,
  UsersPublicDto,
  UserUpdateDto,
  UserUpdateMeDto,
} from './user.dto';
import { SignupNotice } from './signup-notice';
import { UsersService } from './users.service';

@ApiTags('users')
@ApiBearerAuth()
@Controller('users')
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly notice: SignupNotice,
    @Inject(APP_CONFIG) private readonly config: ApiConfig,
  ) {}

  @Get()
  @SuperuserOnly()
  @ApiOkResponse({ type: UsersPublicDto })
  async list(@Query() q: ListUsersQueryDto): Promise<UsersPublicDto> {
    const { data, count } = await this.users.list(q.skip, q.limit);
    return { data: data.map(toUserDto), count };
  }

  @Post()
  @SuperuserOnly()
  @Audited('user')
  @HttpCode(200)
  @ApiOkResponse({ type: UserPublicDto })
  async create(@Body() body: UserCreateDto, @CurrentUser() me: UserEntity): Promise<UserPublicDto> {
    return toUserDto(await this.users.create(fromUserDto(body), me.email));
  }

  @Get('me')
  @SignedIn()
  @PasswordChangePending()
  @ApiOkResponse({ type: UserPublicDto })
  me(@CurrentUser() me: UserEntity): UserPublicDto {
    return toUserDto(me);
  }

  @Patch('me')
  @SignedIn()
  @Audited('user')
  @ApiOkResponse({ type: UserPublicDto })
  async updateMe(@CurrentUser() me: UserEntity, @Body() body: UserUpdateMeDto): Promise<UserPublicDto> {
    return toUserDto(
      await this.users.updateMe(me, {
        email: body.email,
        fullName: body.full_name,
        currentPassword: body.current_password,
      }),
    );
  }

  @Patch('me/password')
  @SignedIn()
  @Audited('user')
  @PasswordChangePending()
  @ApiOkResponse({ type: MessageDto })
  async updatePassword(@CurrentUser() me: UserEntity, @Body() body: UpdatePasswordDto): Promise<MessageDto> {
    await this.users.changePassword(me, body.current_password, body.new_password);
    return message('Password updated successfully');
  }

  @Delete('me')
  @SignedIn()
  @Audited('user')
  @ApiOkResponse({ type: MessageDto })
  async deleteMe(@CurrentUser() me: UserEntity): Promise<MessageDto> {
    await this.users.deleteMe(me);
    return message('User deleted successfully');
  }

  @Post('signup')
  @Public()
  @Audited('user')
  @HttpCode(200)
  @RateLimited('signup')
  @ApiOkResponse({
    type: UserPublicDto,
    description:
      'With SIGNUP=approval (the default) the account is inactive (is_active false) until a superuser activates it',
  })
  @ApiForbiddenResponse({ description: 'SIGNUP=off' })
  @ApiTooManyRequestsResponse({
    description: 'Too many sign-ups from this address (Retry-After says when to try again)',
  })
  async signup(@Body() body: UserRegisterDto): Promise<UserPublicDto> {
    const user = await this.users.register(this.config.signup, {
      email: body.email,
      password: body.password,
      fullName: body.full_name,
    });
    if (!user.isActive) this.notice.notify(user);
    return toUserDto(user);
  }

  @Get(':user_id')
  @SignedIn()
  @ApiOkResponse({ type: UserPublicDto })
  async get(@CurrentUser() me: UserEntity, @Param('user_id', UuidParamPipe) id: string): Promise<UserPublicDto> {
    return toUserDto(await this.users.getAs(me, id));
  }

  @Patch(':user_id')
  @SuperuserOnly()
  @Audited('user')
  @ApiOkResponse({ type: UserPublicDto })
  async update(
    @CurrentUser() me: UserEntity,
    @Param('user_id', UuidParamPipe) id: string,
    @Body() body: UserUpdateDto,
  ): Promise<UserPublicDto> {
    return toUserDto(await this.users.update(me, id, fromUserDto(body)));
  }

  @Delete(':user_id')
  @SuperuserOnly()
  @Audited('user')
  @ApiOkResponse({ type: MessageDto })
  async delete(@CurrentUser() me: UserEntity, @Param('user_id', UuidParamPipe) id: string): Promise<MessageDto> {
    await this.users.delete(me, id);
    return message('User deleted successfully');
  }
}
