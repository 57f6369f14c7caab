import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { cdniConfig } from 'src/config/cdni.config';
import { SessionCacheModule } from 'src/common/auth/session-cache.module';
import { UsersModule } from 'src/modules/users/users.module';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { EndedSession } from './ended-session.entity';
import { AuthRepository } from './auth.repository';
import { EndedSessions } from './ended-sessions';
import { LoginThrottle } from './login-throttle';
import { SessionService } from './session.service';
import { SessionStrategy } from './session.strategy';

@Module({
  imports: [
    PassportModule,
    SessionCacheModule,
    UsersModule,
    ConfigModule.forFeature(cdniConfig),
    TypeOrmModule.forFeature([EndedSession]),
  ],
  controllers: [AuthController],
  providers: [AuthService, AuthRepository, EndedSessions, LoginThrottle, SessionService, SessionStrategy],
  exports: [SessionService],
})
export class AuthModule {}
