import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SessionCacheModule } from 'src/common/auth/session-cache.module';
import { TenantsModule } from 'src/modules/tenants/tenants.module';
import { MailModule } from 'src/modules/mail/mail.module';
import {
  CurrentUserController,
  UserAccountController,
  UserRegistrationController,
} from './registration.controller';
import { CurrentUserService } from './current-user.service';
import { RegistrationService } from './registration.service';
import { User } from './user.entity';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Module({
  imports: [TypeOrmModule.forFeature([User]), SessionCacheModule, TenantsModule, MailModule],
  controllers: [UsersController, UserRegistrationController, UserAccountController, CurrentUserController],
  providers: [UsersService, UsersRepository, CurrentUserService, RegistrationService],
  exports: [UsersService],
})
export class UsersModule {}
