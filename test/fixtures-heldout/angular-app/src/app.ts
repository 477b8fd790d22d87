import { Component, inject, signal } from '@angular/core';
import { FormsModule } from '@angular/forms';
import { MatButtonModule } from '@angular/material/button';
import { MatDialog } from '@angular/material/dialog';
import { MatInputModule } from '@angular/material/input';
import { MatTableModule } from '@angular/material/table';
import { TagsDialog, type Tags } from './tags-dialog';

interface PeriodicElement {
  name: string;
  position: number;
  weight: number;
  symbol: string;
}

/**
 * The held-out Angular Material app: a button opening a MatDialog of chips and a multiple select, and the docs'
 * "Basic use of <table mat-table>" whose weight and symbol cells hold a matInput each, edited in place.
 */
@Component({
  selector: 'app-root',
  imports: [FormsModule, MatButtonModule, MatInputModule, MatTableModule],
  template: `
    <main style="width: 640px; padding: 16px">
      <h1>Elements</h1>
      <button mat-flat-button type="button" (click)="openTags()">Edit tags</button>
      <table mat-table [dataSource]="rows" class="mat-elevation-z8">
        <ng-container matColumnDef="position">
          <th mat-header-cell *matHeaderCellDef>No.</th>
          <td mat-cell *matCellDef="let element">{{ element.position }}</td>
        </ng-container>
        <ng-container matColumnDef="name">
          <th mat-header-cell *matHeaderCellDef>Name</th>
          <td mat-cell *matCellDef="let element">{{ element.name }}</td>
        </ng-container>
        <ng-container matColumnDef="weight">
          <th mat-header-cell *matHeaderCellDef>Weight</th>
          <td mat-cell *matCellDef="let element">
            <input matInput type="number" [(ngModel)]="element.weight" (ngModelChange)="changed()" />
          </td>
        </ng-container>
        <ng-container matColumnDef="symbol">
          <th mat-header-cell *matHeaderCellDef>Symbol</th>
          <td mat-cell *matCellDef="let element">
            <input matInput [(ngModel)]="element.symbol" (ngModelChange)="changed()" />
          </td>
        </ng-container>
        <tr mat-header-row *matHeaderRowDef="displayedColumns"></tr>
        <tr mat-row *matRowDef="let row; columns: displayedColumns"></tr>
      </table>
      <pre id="state">{{ state() }}</pre>
    </main>
  `,
})
export class App {
  private readonly dialog = inject(MatDialog);
  readonly displayedColumns: string[] = ['position', 'name', 'weight', 'symbol'];
  readonly rows: PeriodicElement[] = [
    { position: 1, name: 'Hydrogen', weight: 1.0079, symbol: 'H' },
    { position: 2, name: 'Helium', weight: 4.0026, symbol: 'He' },
    { position: 3, name: 'Lithium', weight: 6.941, symbol: 'Li' },
    { position: 4, name: 'Beryllium', weight: 9.0122, symbol: 'Be' },
  ];
  readonly saved = signal<Tags | null>(null);
  readonly version = signal(0);

  state(): string {
    this.version();
    return JSON.stringify({ saved: this.saved(), rows: this.rows });
  }

  changed(): void {
    this.version.update((v) => v + 1);
  }

  openTags(): void {
    this.dialog
      .open(TagsDialog, { width: '480px' })
      .afterClosed()
      .subscribe((result: Tags | undefined) => {
        if (result) this.saved.set(result);
      });
  }
}
