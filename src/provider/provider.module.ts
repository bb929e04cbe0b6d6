import { Module } from '@nestjs/common';
import { ModelsService } from './models.service';
import { OllamaProviderFactory } from './ollama/ollama-provider.factory';

@Module({ providers: [OllamaProviderFactory, ModelsService], exports: [OllamaProviderFactory, ModelsService] })
export class ProviderModule {}
