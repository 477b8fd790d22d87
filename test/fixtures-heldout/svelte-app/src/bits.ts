import { mount } from 'svelte';
import App from './Bits.svelte';

const target = document.getElementById('root');
if (target) mount(App, { target });
