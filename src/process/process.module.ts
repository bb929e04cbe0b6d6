import { Module } from '@nestjs/common';
import { ProcessManager } from './process-manager.service';

@Module({ providers: [ProcessManager], exports: [ProcessManager] })
export class ProcessModule {}
