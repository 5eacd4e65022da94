import { ApiProperty } from '@nestjs/swagger';

export class MessageDto {
  @ApiProperty({ example: 'User deleted successfully' })
  message!: string;
}

export const message = (text: string): MessageDto => ({ message: text });
