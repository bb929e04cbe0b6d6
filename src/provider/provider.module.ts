import { Module } from '@nestjs/common';
import { OllamaProviderFactory } from './ollama/ollama-provider.factory';

@Module({ providers: [OllamaProviderFactory], exports: [OllamaProviderFactory] })
export class ProviderModule {}
