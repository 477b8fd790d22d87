import { createApp } from 'vue';
import PrimeVue from 'primevue/config';
import Aura from '@primeuix/themes/aura';
import App from './PrimeVue.vue';

// Set up as the PrimeVue docs' "Vite" installation page does (styled mode, the Aura preset).
createApp(App)
  .use(PrimeVue, { theme: { preset: Aura } })
  .mount('#root');
