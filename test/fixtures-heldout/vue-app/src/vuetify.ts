import 'vuetify/styles';
import { createApp } from 'vue';
import { createVuetify } from 'vuetify';
import * as components from 'vuetify/components';
import * as directives from 'vuetify/directives';
import App from './Vuetify.vue';

// Set up as the Vuetify docs' "Getting started / Existing projects" page does.
createApp(App).use(createVuetify({ components, directives })).mount('#root');
