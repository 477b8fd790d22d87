import 'element-plus/dist/index.css';
import { createApp } from 'vue';
import ElementPlus from 'element-plus';
import App from './Element.vue';

// Set up as the Element Plus docs' "Quick start / Full import" does.
createApp(App).use(ElementPlus).mount('#root');
