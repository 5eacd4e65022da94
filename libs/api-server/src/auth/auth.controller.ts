import { Body, Controller, Header, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiConsumes,
  ApiOkResponse,
  ApiProduces,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import type { UserEntity } from '@furnace/db';
import { message, MessageDto } from '../core/message.dto';
import { toUserDto, UserPublicDto } from '../users/user.dto';
import { Audited, NotAudited } from '../audit/audited.decorator';
import { PasswordChangePending, Public, SignedIn, SuperuserOnly } from './access.decorator';
import { NewPasswordDto, LoginFormDto, RecoveryQueryDto, TokenDto } from './auth.dto';
import { AuthService } from './auth.service';
import { CurrentUser } from './current.decorator';
import { RateLimited } from './login-throttler.guard';

@ApiTags('login')
@Controller()
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Post('login/access-token')
  @Public()
  @NotAudited('a sign-in changes no record and no right')
  @HttpCode(200)
  @RateLimited('address', 'account')
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiOkResponse({ type: TokenDto })
  @ApiTooManyRequestsResponse({
    description:
      'Too many attempts from this address, or against this account from any address (Retry-After says when to try again)',
  })
  async login(@Body() form: LoginFormDto): Promise<TokenDto> {
    return { access_token: await this.auth.login(form.username, form.password), token_type: 'bearer' };
  }

  @Post('login/test-token')
  @SignedIn()
  @NotAudited('reads who the token is')
  @PasswordChangePending()
  @HttpCode(200)
  @ApiBearerAuth()
  @ApiOkResponse({ type: UserPublicDto })
  testToken(@CurrentUser() me: UserEntity): UserPublicDto {
    return toUserDto(me);
  }

  @Post('password-recovery/:email')
  @Public()
  @NotAudited('sends a recovery e-mail; the reset it leads to is audited')
  @HttpCode(200)
  @RateLimited('address', 'account')
  @Throttle({ account: { limit: 5, ttl: 15 * 60_000 } })
  @ApiOkResponse({ type: MessageDto })
  @ApiTooManyRequestsResponse({
    description: 'Too many requests from this address or for this account (Retry-After says when to try again)',
  })
  async recover(@Param('email') email: string, @Query() query: RecoveryQueryDto): Promise<MessageDto> {
    await this.auth.recoverPassword(email.trim(), query.lang);
    return message('If that email is registered, we sent a password recovery link');
  }

  @Post('reset-password')
  @Public()
  @Audited('user')
  @HttpCode(200)
  @ApiOkResponse({ type: MessageDto })
  async reset(@Body() body: NewPasswordDto): Promise<MessageDto> {
    await this.auth.resetPassword(body.token, body.new_password);
    return message('Password updated successfully');
  }

  @Post('password-recovery-html-content/:email')
  @SuperuserOnly()
  @NotAudited('shows the recovery e-mail; changes nothing')
  @HttpCode(200)
  @ApiBearerAuth()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'The HTML of the recovery e-mail', schema: { type: 'string' } })
  recoveryHtml(@Param('email') email: string, @Query() query: RecoveryQueryDto): Promise<string> {
    return this.auth.recoveryHtml(email.trim(), query.lang);
  }
}
