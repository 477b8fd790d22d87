import { LiveAnnouncer } from '@angular/cdk/a11y';
import { COMMA, ENTER } from '@angular/cdk/keycodes';
import { Component, computed, inject, model, signal } from '@angular/core';
import { FormsModule } from '@angular/forms';
import { MatAutocompleteModule, type MatAutocompleteSelectedEvent } from '@angular/material/autocomplete';
import { MatButtonModule } from '@angular/material/button';
import { MatChipsModule, type MatChipInputEvent } from '@angular/material/chips';
import { MatDialogModule } from '@angular/material/dialog';
import { MatFormFieldModule } from '@angular/material/form-field';
import { MatIconModule } from '@angular/material/icon';
import { MatSelectModule } from '@angular/material/select';

export interface Tags {
  fruits: string[];
  toppings: string[];
}

/**
 * A MatDialog (the docs' "Dialog with header, scrollable content and actions") holding the docs' "Chips
 * Autocomplete" example and a `mat-select multiple` (the docs' "Select with multiple selection").
 */
@Component({
  selector: 'app-tags-dialog',
  imports: [
    FormsModule,
    MatAutocompleteModule,
    MatButtonModule,
    MatChipsModule,
    MatDialogModule,
    MatFormFieldModule,
    MatIconModule,
    MatSelectModule,
  ],
  template: `
    <h2 mat-dialog-title>Tags</h2>
    <mat-dialog-content>
      <mat-form-field class="example-chip-list">
        <mat-label>Favorite Fruits</mat-label>
        <mat-chip-grid #chipGrid aria-label="Fruit selection">
          @for (fruit of fruits(); track $index) {
            <mat-chip-row (removed)="remove(fruit)">
              {{ fruit }}
              <button matChipRemove [attr.aria-label]="'remove ' + fruit">
                <mat-icon>cancel</mat-icon>
              </button>
            </mat-chip-row>
          }
        </mat-chip-grid>
        <input
          name="currentFruit"
          placeholder="New Fruit..."
          #fruitInput
          [(ngModel)]="currentFruit"
          [matChipInputFor]="chipGrid"
          [matAutocomplete]="auto"
          [matChipInputSeparatorKeyCodes]="separatorKeysCodes"
          (matChipInputTokenEnd)="add($event)"
        />
        <mat-autocomplete #auto="matAutocomplete" (optionSelected)="selected($event); fruitInput.value = ''">
          @for (fruit of filteredFruits(); track fruit) {
            <mat-option [value]="fruit">{{ fruit }}</mat-option>
          }
        </mat-autocomplete>
      </mat-form-field>

      <mat-form-field>
        <mat-label>Toppings</mat-label>
        <mat-select [(ngModel)]="toppings" multiple>
          @for (topping of toppingList; track topping) {
            <mat-option [value]="topping">{{ topping }}</mat-option>
          }
        </mat-select>
      </mat-form-field>
    </mat-dialog-content>
    <mat-dialog-actions align="end">
      <button mat-button mat-dialog-close>Cancel</button>
      <button mat-button [mat-dialog-close]="result()">Save tags</button>
    </mat-dialog-actions>
  `,
})
export class TagsDialog {
  readonly separatorKeysCodes: number[] = [ENTER, COMMA];
  readonly currentFruit = model('');
  readonly fruits = signal(['Lemon']);
  readonly allFruits: string[] = ['Apple', 'Lemon', 'Lime', 'Orange', 'Strawberry'];
  readonly filteredFruits = computed(() => {
    const currentFruit = this.currentFruit().toLowerCase();
    return currentFruit
      ? this.allFruits.filter((fruit) => fruit.toLowerCase().includes(currentFruit))
      : this.allFruits.slice();
  });
  readonly announcer = inject(LiveAnnouncer);
  toppings: string[] = [];
  readonly toppingList: string[] = ['Extra cheese', 'Mushroom', 'Onion', 'Pepperoni', 'Sausage', 'Tomato'];

  result(): Tags {
    return { fruits: this.fruits(), toppings: this.toppings };
  }

  add(event: MatChipInputEvent): void {
    const value = (event.value || '').trim();
    if (value) this.fruits.update((fruits) => [...fruits, value]);
    this.currentFruit.set('');
  }

  remove(fruit: string): void {
    this.fruits.update((fruits) => {
      const index = fruits.indexOf(fruit);
      if (index < 0) return fruits;
      fruits.splice(index, 1);
      void this.announcer.announce(`Removed ${fruit}`);
      return [...fruits];
    });
  }

  selected(event: MatAutocompleteSelectedEvent): void {
    this.fruits.update((fruits) => [...fruits, event.option.viewValue]);
    this.currentFruit.set('');
    event.option.deselect();
  }
}
