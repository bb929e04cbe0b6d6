import { Module } from '@nestjs/common';
import { ModelStream } from '../sessions/model-stream';
import { ProcessManager } from './process-manager.service';

@Module({ providers: [ProcessManager, ModelStream], exports: [ProcessManager, ModelStream] })
export class ProcessModule {}
