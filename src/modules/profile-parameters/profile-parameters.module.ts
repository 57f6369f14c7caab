import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProfileParameter } from './profile-parameter.entity';

@Module({
  imports: [TypeOrmModule.forFeature([ProfileParameter])],
})
export class ProfileParametersModule {}
