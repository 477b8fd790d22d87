import '@angular/material/prebuilt-themes/azure-blue.css';
import { bootstrapApplication } from '@angular/platform-browser';
import { App } from './app';

bootstrapApplication(App).catch((error: unknown) => console.error(error));
