import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Role } from 'src/modules/roles/role.entity';
import { TenantsModule } from 'src/modules/tenants/tenants.module';
import { User } from './user.entity';
import { UsersController } from './users.controller';
import { SessionUserCache } from './session-user.cache';
import { UsersService } from './users.service';

@Module({
  imports: [TypeOrmModule.forFeature([User, Role]), TenantsModule],
  controllers: [UsersController],
  providers: [UsersService, SessionUserCache],
  exports: [UsersService, SessionUserCache],
})
export class UsersModule {}
